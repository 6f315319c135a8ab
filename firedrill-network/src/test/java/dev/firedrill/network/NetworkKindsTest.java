package dev.firedrill.network;

import static dev.firedrill.network.testing.NetworkDrills.blast;
import static dev.firedrill.network.testing.NetworkDrills.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.engine.Planner;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.FaultChecks;
import dev.firedrill.fault.FaultKinds;
import dev.firedrill.fault.FaultRefusedException;
import dev.firedrill.network.nft.PacketFilterSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The network kinds as the file and the journal read them, and the file's own refusals. */
class NetworkKindsTest {

  private static Map<String, Object> entry(String kind, Object... fields) {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("kind", kind);
    for (int i = 0; i < fields.length; i += 2) {
      entry.put((String) fields[i], fields[i + 1]);
    }
    entry.put("ttl", "2m");
    return entry;
  }

  @Test
  void theFixtureExperimentLoadsAndTheFileAloneRefusesNothing() throws Exception {
    Experiment experiment =
        ExperimentLoader.load(Path.of("fixtures/experiments/network-partition.yaml"));
    assertThat(Planner.staticRefusals(experiment)).isEmpty();
    PacketFilterSpec partition = (PacketFilterSpec) experiment.method().faults().get(0);
    assertThat(partition.target()).isEqualTo("10.20.0.5 port 5432 (tcp) in netns checkout");
    assertThat(FaultKinds.installed().words(experiment.method().faults().get(1)))
        .contains("drop 10% of the packets to 10.30.0.0/24 in netns checkout");
  }

  @Test
  void theKindsAreFoundByTheServiceLoader() {
    assertThat(FaultKinds.installed().names())
        .contains(
            "network-partition",
            "network-refuse",
            "network-loss",
            "network-bandwidth",
            "network-delay");
  }

  @Test
  void eachSpecSurvivesTheJournal() {
    FaultKinds kinds = FaultKinds.installed();
    for (Map<String, Object> entry :
        List.of(
            entry(
                "network-partition",
                "namespace",
                "app",
                "to",
                List.of("10.0.0.2", "10.1.0.0/16"),
                "ports",
                List.of(80, 443),
                "direction",
                "ingress"),
            entry("network-refuse", "namespace", "app", "to", "10.0.0.2", "protocol", "all"),
            entry("network-loss", "namespace", "app", "to", List.of("10.0.0.2"), "share", "20%"),
            entry("network-bandwidth", "namespace", "app", "device", "eth0", "rate", "1mbit"),
            entry(
                "network-delay",
                "namespace",
                "app",
                "device",
                "eth0",
                "delay",
                "100ms",
                "jitter",
                "10ms",
                "loss",
                0.01))) {
      FaultSpec spec = spec(entry);
      assertThat(kinds.readJournal(kinds.writeJournal(spec))).isEqualTo(spec);
    }
  }

  @Test
  void theHostsOwnNamespaceIsRefusedUnlessTheBlastRadiusAllowsIt() throws Exception {
    FaultSpec spec = spec(entry("network-partition", "to", List.of("10.0.0.2")));
    assertThatThrownBy(() -> FaultChecks.check(spec, blast(false), Duration.ofSeconds(1)))
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "network-partition: no namespace, so the fault would act on the host's own network;"
                + " expected namespace: NAME (a network namespace, see ip netns list), or"
                + " blast_radius.allow_host_network: true");
    assertThat(FaultChecks.check(spec, blast(true), Duration.ofSeconds(1)))
        .isEqualTo(Duration.ofMinutes(2));
  }

  @Test
  void lossTakesTheProjectsShareInWholePercent() {
    assertThat(spec(entry("network-loss", "namespace", "a", "to", "10.0.0.2", "share", 0.2)))
        .isEqualTo(spec(entry("network-loss", "namespace", "a", "to", "10.0.0.2", "share", "20%")));
    assertThatThrownBy(
            () -> spec(entry("network-loss", "namespace", "a", "to", "10.0.0.2", "share", "12.5%")))
        .hasMessageContaining("/share")
        .hasMessageContaining("expected a share in whole percent");
    assertThatThrownBy(
            () -> spec(entry("network-loss", "namespace", "a", "to", "10.0.0.2", "share", 20)))
        .hasMessageContaining("did you mean \"20%\" or 0.2?");
  }

  @Test
  void badInputNamesTheKeyAndWhatWasExpected() {
    assertThatThrownBy(
            () -> spec(entry("network-partition", "namespace", "a", "to", "10.0.0.1/24")))
        .hasMessageContaining("/to")
        .hasMessageContaining("expected an IPv4 address or network");
    assertThatThrownBy(
            () ->
                spec(
                    entry(
                        "network-partition",
                        "namespace",
                        "a",
                        "to",
                        List.of("10.0.0.0/8", "10.1.0.0/16"))))
        .hasMessageContaining("expected addresses that do not overlap; 10.1.0.0/16 does");
    assertThatThrownBy(
            () ->
                spec(
                    entry("network-partition", "namespace", "a", "to", "10.0.0.1", "ports", 70000)))
        .hasMessageContaining("/ports")
        .hasMessageContaining("expected a port from 1 to 65535");
    assertThatThrownBy(
            () ->
                spec(
                    entry(
                        "network-refuse", "namespace", "a", "to", "10.0.0.1", "direction", "both")))
        .hasMessageContaining(
            "direction applies to network-partition, network-loss, not network-refuse");
    assertThatThrownBy(
            () ->
                spec(
                    entry("network-bandwidth", "namespace", "a", "device", "eth0", "rate", "fast")))
        .hasMessageContaining("/rate")
        .hasMessageContaining("expected a rate as tc writes it");
    assertThatThrownBy(() -> spec(entry("network-partition", "namespace", "a b", "to", "10.0.0.1")))
        .hasMessageContaining("/namespace");
  }
}
