package dev.firedrill.programme.suite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.alerting.DetectionRow;
import dev.firedrill.alerting.ObservabilityResult;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.Verdict;
import dev.firedrill.experiment.AlertExpectation;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import dev.firedrill.prometheus.PrometheusAlert;
import dev.firedrill.testing.MinimalExperiment;
import dev.firedrill.time.VirtualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The cooldown on a virtual clock: the page the previous drill saw fire stays active for a while,
 * and the wait ends when it has resolved and the steady state holds, or at the limit.
 */
class LiveCooldownTest {

  private final VirtualClock clock = VirtualClock.at("2026-12-01T12:00:00Z");

  private static final PrometheusAlert PAGE =
      new PrometheusAlert(
          Map.of("alertname", "CheckoutErrorBudgetBurn", "service", "checkout"),
          Map.of(),
          "firing",
          Optional.empty(),
          "1");

  private static DrillResult pagedDrill() {
    AlertExpectation page =
        new AlertExpectation(
            "CheckoutErrorBudgetBurn",
            Map.of("service", "checkout"),
            AlertExpectation.Expect.FIRING,
            Duration.ofSeconds(20),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            false);
    DetectionRow row =
        new DetectionRow(
            page,
            true,
            Optional.of(Duration.ofSeconds(2)),
            "webhook startsAt",
            Optional.empty(),
            Optional.empty(), // no notification: no resolved one to wait for
            DetectionRow.Check.unchecked(""),
            List.of(),
            DetectionRow.Check.unchecked(""),
            DetectionRow.Check.unchecked(""),
            true,
            "fired",
            List.of(),
            false);
    return new DrillResult(
        Verdict.DEVIATED,
        "",
        true,
        List.of(),
        null,
        Optional.of(ObservabilityResult.of(List.of(row))));
  }

  private Cooldown.Waited await(int pollsFiring, Duration limit) throws Exception {
    AtomicInteger polls = new AtomicInteger();
    Suite.Entry entry =
        new Suite.Entry(Path.of("a.yaml"), ExperimentLoader.load("a.yaml", MinimalExperiment.TEXT));
    LiveCooldown cooldown =
        new LiveCooldown(
            experiment ->
                new LiveCooldown.Probes(
                    targets ->
                        new Measurement(
                            clock.now(),
                            List.of(Reading.of("error_ratio", 0, true, "<= 0.005")),
                            Optional.empty()),
                    () -> polls.incrementAndGet() <= pollsFiring ? List.of(PAGE) : List.of(),
                    Optional.empty()),
            clock);
    return cooldown.await(entry, pagedDrill(), limit);
  }

  @Test
  void waitsUntilThePageThePreviousDrillFiredHasResolved() throws Exception {
    Cooldown.Waited waited = await(5, Duration.ofMinutes(1));

    assertThat(waited.quiet()).isTrue();
    assertThat(waited.waited()).isEqualTo(Duration.ofSeconds(5)); // five polls a second apart
  }

  @Test
  void stopsAtTheLimitNamingWhatIsStillActive() throws Exception {
    Cooldown.Waited waited = await(Integer.MAX_VALUE, Duration.ofSeconds(10));

    assertThat(waited.quiet()).isFalse();
    assertThat(waited.waited()).isEqualTo(Duration.ofSeconds(10));
    assertThat(waited.still()).containsExactly("CheckoutErrorBudgetBurn{service=\"checkout\"}");
  }
}
