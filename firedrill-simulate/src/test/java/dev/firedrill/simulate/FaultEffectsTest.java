package dev.firedrill.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.FaultKinds;
import dev.firedrill.fault.FaultRefusedException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FaultEffectsTest {

  private static final URI PROXY = URI.create("http://127.0.0.1:18474");

  @Test
  void eachFaultKindBecomesItsEffect() throws Exception {
    assertThat(
            FaultEffects.of(
                new FaultSpec.HttpToxic(
                    PROXY,
                    "payments",
                    0.1,
                    new FaultSpec.HttpToxic.Error(503),
                    Optional.empty(),
                    Optional.empty())))
        .isEqualTo(new Effect.Failing("payments", 0.1, 503));
    assertThat(
            FaultEffects.of(
                new FaultSpec.ExporterDown(
                    PROXY, "payments-metrics", null, Optional.empty(), Optional.empty())))
        .isEqualTo(new Effect.ExporterDown("payments"));
    assertThat(
            FaultEffects.of(
                new FaultSpec.ProcessKill(
                    "java .* lab payments",
                    "KILL",
                    Optional.empty(),
                    Optional.of(Duration.ofMinutes(1)))))
        .isEqualTo(new Effect.Down("payments"));
    assertThat(FaultEffects.of(new FaultSpec.CpuBurn(2, Optional.empty())))
        .isEqualTo(new Effect.CpuBurn(2));
  }

  @Test
  void everyInstalledKindHasAnEffectAndNoOtherKindHasOne() {
    assertThat(FaultEffects.BY_KIND.keySet())
        .containsExactlyInAnyOrderElementsOf(FaultKinds.installed().names());
  }

  @Test
  void aCommandFaultIsRefusedSinceNothingKnowsWhatItDoes() {
    FaultSpec.Command command =
        new FaultSpec.Command(
            List.of("/usr/bin/aws", "fis", "start-experiment"),
            List.of("/usr/bin/aws", "fis", "stop-experiment"),
            List.of("/bin/true"),
            true,
            Duration.ofSeconds(30),
            Optional.of(Duration.ofMinutes(5)));
    assertThatThrownBy(() -> FaultEffects.of(command))
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "command: what aws injects is unknown to firedrill, so the simulated lab cannot"
                + " predict it; expected a drill against the real system");
  }

  @Test
  void eachHttpKindBecomesTheEffectOfItsToxic() throws Exception {
    assertThat(
            FaultEffects.of(
                new FaultSpec.HttpToxic(
                    PROXY,
                    "checkout",
                    0.5,
                    new FaultSpec.HttpToxic.Latency(Duration.ofMillis(100), Duration.ZERO),
                    Optional.empty(),
                    Optional.empty())))
        .isEqualTo(
            new Effect.Slower(
                "checkout", 0.5, Latency.uniform(Duration.ofMillis(100), Duration.ZERO)));
    assertThat(
            FaultEffects.of(
                new FaultSpec.HttpToxic(
                    PROXY,
                    "payments",
                    0.2,
                    new FaultSpec.HttpToxic.Reset(),
                    Optional.empty(),
                    Optional.empty())))
        .isEqualTo(new Effect.Reset("payments", 0.2));
    assertThat(
            FaultEffects.of(
                new FaultSpec.HttpToxic(
                    PROXY,
                    "payments",
                    1,
                    new FaultSpec.HttpToxic.Timeout(Duration.ofSeconds(2)),
                    Optional.empty(),
                    Optional.empty())))
        .isEqualTo(new Effect.Held("payments", 1, Duration.ofSeconds(2)));
  }

  @Test
  void aTargetTheModelDoesNotHaveIsRefusedByName() {
    assertThatThrownBy(
            () ->
                FaultEffects.of(
                    new FaultSpec.HttpToxic(
                        PROXY,
                        "inventory",
                        1,
                        new FaultSpec.HttpToxic.Reset(),
                        Optional.empty(),
                        Optional.empty())))
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "proxy_name \"inventory\" is no simulated service (expected checkout or payments, or "
                + "payments-metrics for exporter-down)");
    assertThatThrownBy(
            () ->
                FaultEffects.of(
                    new FaultSpec.ProcessKill("nginx", "TERM", Optional.empty(), Optional.empty())))
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "process-kill match \"nginx\" names no simulated service (expected a match containing checkout "
                + "or payments)");
  }
}
