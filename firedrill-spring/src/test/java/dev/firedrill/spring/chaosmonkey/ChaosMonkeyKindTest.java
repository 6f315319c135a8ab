package dev.firedrill.spring.chaosmonkey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.experiment.TokenSource;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultKinds;
import dev.firedrill.fault.FaultRefusedException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The fault's entry as the file writes it, the refusals before anything runs, and its plan. */
class ChaosMonkeyKindTest {

  private static final Path FIXTURE = Path.of("fixtures/experiments/spring-chaos-monkey.yaml");

  private static final String ASSAULTS =
      "      assaults:\n"
          + "        level: 5\n"
          + "        deterministic: true\n"
          + "        latency_range: 100ms..300ms\n";

  private static Experiment load(String from, String to) throws Exception {
    return ExperimentLoader.load(
        "spring-chaos-monkey.yaml", Files.readString(FIXTURE).replace(from, to));
  }

  private static ChaosMonkeySpec spec(Experiment experiment) {
    return (ChaosMonkeySpec) experiment.method().faults().get(0);
  }

  /** The one-line problem the fixture with {@code from} replaced by {@code to} earns. */
  private static String problem(String from, String to) throws Exception {
    assertThat(Files.readString(FIXTURE)).contains(from);
    try {
      load(from, to);
    } catch (dev.firedrill.experiment.ExperimentException e) {
      return e.getMessage();
    }
    throw new AssertionError("expected a problem with " + to);
  }

  @Test
  void readsTheFixture() throws Exception {
    ChaosMonkeySpec spec = spec(ExperimentLoader.load(FIXTURE));

    assertThat(spec.actuator()).isEqualTo(URI.create("http://127.0.0.1:8080/actuator"));
    assertThat(spec.token()).isEqualTo(new TokenSource.FromEnv("ORDERS_ACTUATOR_TOKEN"));
    assertThat(spec.assaults())
        .isEqualTo(
            new Assaults(5, true, Optional.of(new LatencyRange(100, 300)), Optional.empty()));
    assertThat(spec.watchers()).isEqualTo(new Watchers(false, false, true, true, false));
    assertThat(FaultKinds.installed().words(spec))
        .contains(
            "1 in 5 calls (deterministic) to service, repository beans of 127.0.0.1:8080 delayed"
                + " 100ms..300ms");
  }

  @Test
  void theJournalsEntryReadsBackAsTheSameSpec() throws Exception {
    ChaosMonkeySpec spec =
        spec(
            load(
                "        latency_range: 100ms..300ms\n",
                "        latency_range: 250ms\n        exception: java.lang.IllegalStateException\n"));
    var kinds = FaultKinds.installed();

    assertThat(kinds.readJournal(kinds.writeJournal(spec))).isEqualTo(spec);
    assertThat(spec.assaults().latency()).contains(new LatencyRange(250, 250));
  }

  @Test
  void refusesWhatItCannotDoOrUndo() throws Exception {
    assertThat(problem("        level: 5\n", ""))
        .contains("assaults/level")
        .contains("missing; assaults need level");
    assertThat(problem("100ms..300ms", "300ms..100ms"))
        .contains("expected a latency range such as \"100ms..300ms\"");
    assertThat(problem("        latency_range: 100ms..300ms\n", ""))
        .contains("expected at least one assault: latency_range, exception, or both");
    assertThat(problem(ASSAULTS, ASSAULTS + "        kill_application_active: true\n"))
        .contains("assault is not supported: firedrill's revert could not undo what it does");
    assertThat(
            problem(
                "        service: true\n        repository: true\n", "        service: false\n"))
        .contains("expected at least one watcher true");
    assertThat(problem("      token_env: ORDERS_ACTUATOR_TOKEN\n", "      token: s3cret\n"))
        .contains("token")
        .doesNotContain("s3cret");
    assertThat(problem("http://127.0.0.1:8080/actuator", "http://orders.internal:8080/actuator"))
        .contains("the bearer token would cross the network in clear text");
  }

  @Test
  void anHttpsOrUntokenedRemoteActuatorIsAccepted() throws Exception {
    assertThat(
            spec(load("http://127.0.0.1:8080/actuator", "https://orders.internal/actuator"))
                .actuator())
        .isEqualTo(URI.create("https://orders.internal/actuator"));
    assertThat(
            spec(load(
                    "      actuator: http://127.0.0.1:8080/actuator\n      token_env:"
                        + " ORDERS_ACTUATOR_TOKEN\n",
                    "      actuator: http://orders.internal:8080/actuator\n"))
                .token())
        .isEqualTo(TokenSource.none());
  }

  @Test
  void aLevelAttackingMoreThanTheTrafficShareIsRefused() throws Exception {
    ChaosMonkeySpec spec = spec(load("        level: 5\n", "        level: 2\n"));
    Fault fault = Monkeys.fault(spec, Monkeys.context(0.2, Map.of()));

    assertThatThrownBy(fault::plan)
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "spring-chaos-monkey: assaults level 2 attacks 50% of watched calls, more than"
                + " blast_radius traffic_share 20%; expected a level of at least 5 (1 / 0.2)");
  }

  @Test
  void planPrintsTheExactRequests() throws Exception {
    ChaosMonkeySpec spec = spec(ExperimentLoader.load(FIXTURE));
    Fault fault =
        Monkeys.fault(spec, Monkeys.context(0.2, Map.of("ORDERS_ACTUATOR_TOKEN", "t-1234567")));

    assertThat(fault.plan())
        .containsExactly(
            "GET http://127.0.0.1:8080/actuator/chaosmonkey/status (refused when Chaos Monkey is"
                + " already enabled)",
            "POST http://127.0.0.1:8080/actuator/chaosmonkey/assaults"
                + " {\"level\":5,\"deterministic\":true,\"latencyActive\":true,"
                + "\"latencyRangeStart\":100,\"latencyRangeEnd\":300,\"exceptionsActive\":false,"
                + "\"killApplicationActive\":false,\"memoryActive\":false,\"cpuActive\":false}",
            "POST http://127.0.0.1:8080/actuator/chaosmonkey/watchers"
                + " {\"controller\":false,\"restController\":false,\"service\":true,"
                + "\"repository\":true,\"component\":false,\"restTemplate\":false,"
                + "\"webClient\":false,\"actuatorHealth\":false}",
            "POST http://127.0.0.1:8080/actuator/chaosmonkey/enable",
            "revert, at the end or by the watchdog 3m after injection if firedrill dies: POST"
                + " http://127.0.0.1:8080/actuator/chaosmonkey/disable, then POST"
                + " http://127.0.0.1:8080/actuator/chaosmonkey/assaults"
                + " {\"latencyActive\":false,\"exceptionsActive\":false,"
                + "\"killApplicationActive\":false,\"memoryActive\":false,\"cpuActive\":false};"
                + " verified by GET http://127.0.0.1:8080/actuator/chaosmonkey/status (enabled"
                + " false) and GET http://127.0.0.1:8080/actuator/chaosmonkey/assaults"
                + " (latencyActive and exceptionsActive false)");
  }

  @Test
  void aMissingTokenIsOneLineNamingTheVariable() throws Exception {
    ChaosMonkeySpec spec = spec(ExperimentLoader.load(FIXTURE));
    Fault fault = Monkeys.fault(spec, Monkeys.context(0.2, Map.of()));

    assertThatThrownBy(fault::plan)
        .hasMessage(
            "spring-chaos-monkey: actuator token: environment variable ORDERS_ACTUATOR_TOKEN is"
                + " not set (expected the actuator's bearer token)");
  }

  @Test
  void anUnreachableActuatorIsOneLineNamingTheUrlWithoutTheToken() throws Exception {
    int port = dev.firedrill.net.Loopback.freePort();
    ChaosMonkeySpec spec =
        Monkeys.spec(
            URI.create("http://127.0.0.1:" + port + "/actuator"),
            new TokenSource.FromEnv("T"),
            Monkeys.latency(1, 100, 100));
    Fault fault = Monkeys.fault(spec, Monkeys.context(1.0, Map.of("T", "tok-98765")));

    assertThatThrownBy(fault::inject)
        .hasMessage(
            "spring-chaos-monkey: cannot reach the actuator at http://127.0.0.1:"
                + port
                + "/actuator/chaosmonkey/status (connection refused)");
    assertThat(fault.verify().detail()).contains("connection refused").doesNotContain("tok-98765");
  }
}
