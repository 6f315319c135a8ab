package dev.firedrill.experiment;

import static dev.firedrill.testing.MinimalExperiment.TEXT;
import static dev.firedrill.testing.MinimalExperiment.problems;
import static dev.firedrill.testing.MinimalExperiment.replace;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.testing.MinimalExperiment;
import dev.firedrill.yaml.Problem;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class ExperimentLoaderTest {

  private static final Path FIXTURES = Path.of("fixtures");

  private static List<String> fileProblems(Path file) {
    try {
      ExperimentLoader.load(file);
    } catch (ExperimentException e) {
      return e.problems().stream().map(Problem::toString).toList();
    }
    throw new AssertionError("expected problems in " + file);
  }

  @Test
  void loadsTheValidFixtures() throws Exception {
    Experiment cpu = ExperimentLoader.load(FIXTURES.resolve("experiments/cpu-burn.yaml"));
    assertThat(cpu.id()).isEqualTo("checkout-latency");
    assertThat(cpu.prometheus().url()).isEqualTo(URI.create("http://127.0.0.1:9090"));
    assertThat(cpu.method().faults())
        .containsExactly(new FaultSpec.CpuBurn(2, Optional.of(Duration.ofMinutes(15))));

    Experiment kill = ExperimentLoader.load(FIXTURES.resolve("experiments/process-kill.json"));
    assertThat(kill.method().faults())
        .containsExactly(
            new FaultSpec.ProcessKill(
                "payments-server", "TERM", Optional.of(0.5), Optional.of(Duration.ofMinutes(15))));
    assertThat(kill.prometheus().http().bearerToken())
        .contains(new TokenSource.FromEnv("PROM_TOKEN"));

    Experiment slow = ExperimentLoader.load(FIXTURES.resolve("experiments/http-latency.yaml"));
    assertThat(slow.method().faults())
        .containsExactly(
            new FaultSpec.HttpToxic(
                URI.create("http://127.0.0.1:8474"),
                "payments",
                0.05,
                new FaultSpec.HttpToxic.Latency(Duration.ofMillis(200), Duration.ofMillis(20)),
                Optional.of(Duration.ofMinutes(15)),
                Optional.empty()));

    Experiment large = ExperimentLoader.load(FIXTURES.resolve("experiments/large-200-lines.yaml"));
    assertThat(large.steadyState().slis()).hasSize(22);
    assertThat(large.abort().rules()).hasSize(22);

    Experiment exporterDown =
        ExperimentLoader.load(FIXTURES.resolve("experiments/payments-exporter-down.yaml"));
    assertThat(exporterDown.method().faults())
        .containsExactly(
            new FaultSpec.ExporterDown(
                URI.create("http://127.0.0.1:18475"),
                "payments-metrics",
                FaultSpec.ExporterDown.Mode.ERROR,
                Optional.of(Duration.ofMinutes(2)),
                Optional.empty()));
    assertThat(exporterDown.method().duration()).isEqualTo(Duration.ofSeconds(20));
    assertThat(exporterDown.steadyState().interval()).isEqualTo(Duration.ofSeconds(2));
    assertThat(exporterDown.steadyState().slis())
        .allSatisfy(sli -> assertThat(sli.query()).contains("checkout"));
    assertThat(exporterDown.hypothesis().alerts())
        .extracting(AlertExpectation::alert, AlertExpectation::expect)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "PaymentsMetricsAbsent", AlertExpectation.Expect.FIRING),
            org.assertj.core.groups.Tuple.tuple("PaymentsDown", AlertExpectation.Expect.FIRING),
            org.assertj.core.groups.Tuple.tuple(
                "CheckoutErrorBudgetBurn", AlertExpectation.Expect.SILENT));
  }

  @Test
  void jsonIsEquivalentToYaml() throws Exception {
    String yaml =
        """
        id: payments-restart
        title: Checkout survives the loss of a payments process
        owner: team-payments
        prometheus:
          url: http://127.0.0.1:9090
          timeout: 5s
          bearer_token_env: PROM_TOKEN
        steady_state:
          interval: 5s
          slis:
            - name: error_ratio
              query: sum(rate(http_requests_total{code=~"5.."}[1m])) / sum(rate(http_requests_total[1m]))
              max: 0.005
              missing: fail
            - name: availability
              query: avg_over_time(up{job="payments"}[1m])
              min: 0.5
        hypothesis:
          description: Killing half of the payments processes does not break checkout.
          recovery: 1m
        method:
          duration: 10m
          faults:
            - kind: process-kill
              match: payments-server
              signal: SIGTERM
              share: 0.5
              ttl: 15m
        abort:
          rules:
            - {sli: error_ratio, above: 0.05, for: 2}
            - {sli: availability, below: 0.25}
          probe_errors: 3
        blast_radius:
          traffic_share: 0.5
          max_duration: 15m
          budget_ceiling: 5%
          max_processes: 2
        """;
    assertThat(ExperimentLoader.load("exp.yaml", yaml))
        .isEqualTo(ExperimentLoader.load(FIXTURES.resolve("experiments/process-kill.json")));
  }

  @Test
  void sniffsJsonWithoutExtension() throws Exception {
    String json = "{\"id\": 5}";
    assertThat(problems("experiment", json))
        .contains("experiment: /id: expected a string, got 5 (line 1, column 2)");
  }

  @Test
  void appliesEveryDefault() throws Exception {
    Experiment e = ExperimentLoader.load("exp.yaml", TEXT);
    assertThat(e.owner()).isEmpty();
    assertThat(e.prometheus().timeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(e.prometheus().http().bearerToken()).isEmpty();
    assertThat(e.steadyState().interval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(e.steadyState().slis())
        .containsExactly(
            new Sli(
                "error_ratio",
                "up",
                OptionalDouble.empty(),
                OptionalDouble.of(0.005),
                Missing.FAIL));
    assertThat(e.hypothesis()).isEqualTo(new Hypothesis("", Duration.ofMinutes(1)));
    assertThat(e.method().faults())
        .containsExactly(
            new FaultSpec.ProcessKill(
                "payments-server", "KILL", Optional.empty(), Optional.empty()));
    assertThat(e.abort().rules())
        .containsExactly(new AbortRule("error_ratio", AbortRule.Direction.ABOVE, 0.05, 1));
    assertThat(e.abort().burnRate())
        .contains(
            new BurnRateGuard(
                0.999, Duration.ofDays(30), "up", 14.4, Missing.FAIL, Optional.empty()));
    assertThat(e.abort().probeErrors()).isEqualTo(3);
    assertThat(e.abort().abortFile()).isEmpty();
    assertThat(e.blastRadius())
        .isEqualTo(new BlastRadius(0.05, Duration.ofMinutes(15), 0.05, 1, 1));
  }

  @Test
  void readsTheKubernetesAndNetworkLimitsAndTheKubernetesContext() throws Exception {
    Experiment e =
        ExperimentLoader.load(
            "exp.yaml",
            replace(
                    TEXT,
                    "  max_duration: 15m\n",
                    "  max_duration: 15m\n  namespaces: [shop, payments]\n  max_percent: 34%\n"
                        + "  max_pods: 2\n  allow_host_network: true\n")
                + "kubernetes:\n  context: kind-shop\n");
    assertThat(e.blastRadius().namespaces()).containsExactly("shop", "payments");
    assertThat(e.blastRadius().maxPercent()).contains(0.34);
    assertThat(e.blastRadius().maxPods()).contains(2);
    assertThat(e.blastRadius().allowHostNetwork()).isTrue();
    assertThat(e.kubernetesContext()).contains("kind-shop");
  }

  @Test
  void aNamespaceThatKubernetesWouldRefuseIsNamed() {
    assertThat(
            problems(
                replace(
                    TEXT,
                    "  max_duration: 15m\n",
                    "  max_duration: 15m\n  namespaces: [Shop_1]\n")))
        .containsExactly(
            "exp.yaml: /blast_radius/namespaces/0: expected a Kubernetes namespace name such as shop,"
                + " got \"Shop_1\" (line 26, column 16)");
  }

  @Test
  void emptyAbortSectionAndNoRulesAreFine() throws Exception {
    String yaml =
        TEXT.substring(0, TEXT.indexOf("abort:"))
            + "abort:\n"
            + TEXT.substring(TEXT.indexOf("blast_radius:"));
    Abort abort = ExperimentLoader.load("exp.yaml", yaml).abort();
    assertThat(abort.rules()).isEmpty();
    assertThat(abort.burnRate()).isEmpty();
  }

  @Test
  void acceptsPercentForms() throws Exception {
    String yaml =
        replace(TEXT, "traffic_share: 0.05", "traffic_share: 5%\n  budget_ceiling: \"2.5%\"");
    yaml = replace(yaml, "objective: 0.999", "objective: 99.9%");
    Experiment e = ExperimentLoader.load("exp.yaml", yaml);
    assertThat(e.blastRadius().trafficShare()).isEqualTo(0.05);
    assertThat(e.blastRadius().budgetCeiling()).isEqualTo(0.025);
    assertThat(e.abort().burnRate().orElseThrow().objective()).isEqualTo(0.999);

    assertThat(problems(replace(TEXT, "traffic_share: 0.05", "traffic_share: 150%")))
        .containsExactly(
            "exp.yaml: /blast_radius/traffic_share: expected a share in (0, 1], such as 0.05 or \"5%\", got \"150%\""
                + " (line 24, column 3)");
    assertThat(problems(replace(TEXT, "objective: 0.999", "objective: 99.9")))
        .containsExactly(
            "exp.yaml: /abort/burn_rate/objective: expected an objective strictly between 0 and 1, such as 0.999"
                + " or \"99.9%\", got 99.9 (line 21, column 5)");
  }

  @Test
  void reportsAllMissingPartsOfTheFixtureAtOnce() {
    assertThat(fileProblems(FIXTURES.resolve("bad/missing-parts.yaml")))
        .containsExactly(
            "fixtures/bad/missing-parts.yaml: /abort: missing; an experiment needs an abort section (line 1, column 1)",
            "fixtures/bad/missing-parts.yaml: /blast_radius: missing; an experiment needs a blast_radius section:"
                + " how much the drill may break (line 1, column 1)",
            "fixtures/bad/missing-parts.yaml: /steady_state/slis: missing; a steady state is measured, not assumed:"
                + " list at least one SLI (line 5, column 1)",
            "fixtures/bad/missing-parts.yaml: /method/faults: missing; a drill needs at least one fault,"
                + " such as process-kill or cpu-burn (line 7, column 1)");
  }

  @Test
  void reportsEveryMissingTopLevelPart() {
    assertThat(problems("owner: team-payments\n"))
        .containsExactly(
            "exp.yaml: /id: missing; an experiment needs an id such as checkout-latency (line 1, column 1)",
            "exp.yaml: /title: missing; an experiment needs a title that says what the drill shows (line 1, column 1)",
            "exp.yaml: /prometheus: missing; an experiment needs a prometheus section with the url of Prometheus"
                + " (line 1, column 1)",
            "exp.yaml: /steady_state: missing; a steady state is measured, not assumed; an experiment needs"
                + " steady_state with at least one SLI (line 1, column 1)",
            "exp.yaml: /method: missing; an experiment needs a method: a duration and at least one fault"
                + " (line 1, column 1)",
            "exp.yaml: /abort: missing; an experiment needs an abort section (line 1, column 1)",
            "exp.yaml: /blast_radius: missing; an experiment needs a blast_radius section: how much the drill may break"
                + " (line 1, column 1)");
  }

  @Test
  void reportsEveryMissingNestedPart() {
    String yaml =
        """
        id: drill
        title: A drill
        prometheus: {timeout: 5s}
        steady_state:
          slis:
            - missing: fail
        method:
          faults:
            - ttl: 1m
            - kind: process-kill
            - kind: cpu-burn
        abort:
          rules:
            - for: 2
          burn_rate: {}
        blast_radius: {}
        """;
    assertThat(problems(yaml))
        .containsExactly(
            "exp.yaml: /prometheus/url: missing; expected the http or https URL of Prometheus, such as"
                + " http://127.0.0.1:9090 (line 3, column 1)",
            "exp.yaml: /steady_state/slis/0/name: missing; expected a name such as error_ratio (line 6, column 7)",
            "exp.yaml: /steady_state/slis/0/query: missing; expected a PromQL query (line 6, column 7)",
            "exp.yaml: /steady_state/slis/0/max: missing; an SLI needs max, min or both, or a control query (line 6, column 7)",
            "exp.yaml: /method/duration: missing; expected how long the faults stay on, such as 10m (line 7, column 1)",
            "exp.yaml: /method/faults/0/kind: missing; expected a fault kind: process-kill, cpu-burn, http-latency,"
                + " http-error, http-reset, http-timeout, exporter-down or command (line 9, column 7)",
            "exp.yaml: /method/faults/1/match: missing; process-kill needs match: text to look for in the command line"
                + " of the processes (line 10, column 7)",
            "exp.yaml: /method/faults/2/workers: missing; cpu-burn needs workers: how many busy processes to start,"
                + " at least 1 (line 11, column 7)",
            "exp.yaml: /abort/rules/0/sli: missing; an abort rule needs the name of the SLI it watches (line 14, column 7)",
            "exp.yaml: /abort/rules/0/above: missing; an abort rule needs above or below: the threshold that stops"
                + " the drill (line 14, column 7)",
            "exp.yaml: /abort/burn_rate/objective: missing; expected the SLO objective, such as 0.999 or \"99.9%\""
                + " (line 15, column 3)",
            "exp.yaml: /abort/burn_rate/error_ratio: missing; expected a PromQL query for the error ratio"
                + " (line 15, column 3)",
            "exp.yaml: /abort/burn_rate/max: missing; expected the highest burn rate allowed, such as 14.4"
                + " (line 15, column 3)",
            "exp.yaml: /blast_radius/traffic_share: missing; expected the share of traffic the faults may touch,"
                + " such as 0.05 or \"5%\" (line 16, column 1)",
            "exp.yaml: /blast_radius/max_duration: missing; expected the longest the drill may run, such as 15m"
                + " (line 16, column 1)");
  }

  @Test
  void emptyListsCountAsMissing() {
    String yaml =
        replace(
            TEXT,
            "  slis:\n    - name: error_ratio\n      query: up\n      max: 0.005\n",
            "  slis: []\n");
    yaml =
        replace(
            yaml,
            "  faults:\n    - kind: process-kill\n    match: payments-server\n"
                .replace("    match", "      match"),
            "  faults: []\n");
    assertThat(problems(yaml))
        .containsExactly(
            "exp.yaml: /steady_state/slis: missing; a steady state is measured, not assumed: list at least one SLI"
                + " (line 6, column 3)",
            "exp.yaml: /method/faults: missing; a drill needs at least one fault, such as process-kill or cpu-burn"
                + " (line 9, column 3)");
  }

  @Test
  void unknownKeyFixtureSuggestsTheNearestKey() {
    assertThat(fileProblems(FIXTURES.resolve("bad/unknown-key.yaml")))
        .containsExactly(
            "fixtures/bad/unknown-key.yaml: /steady_state/slis/0/max: missing; an SLI needs max, min or both, or a control query"
                + " (line 7, column 7)",
            "fixtures/bad/unknown-key.yaml: /steady_state/slis/0/maxx: unknown key; did you mean \"max\"?"
                + " (line 9, column 7)");
  }

  @Test
  void unknownKeyFarFromAllListsTheValidKeys() {
    assertThat(
            problems(
                replace(TEXT, "  max_duration: 15m\n", "  max_duration: 15m\n  colour: red\n")))
        .containsExactly(
            "exp.yaml: /blast_radius/colour: unknown key; valid keys here: traffic_share, max_duration,"
                + " budget_ceiling, max_processes, max_workers, namespaces, max_percent, max_pods, allow_host_network (line 26, column 3)");
    assertThat(problems(replace(TEXT, "title: A drill\n", "title: A drill\nsteadyState: {}\n")))
        .containsExactly(
            "exp.yaml: /steadyState: unknown key; did you mean \"steady_state\"? (line 3, column 1)");
    assertThat(
            problems(
                replace(
                    TEXT, "match: payments-server", "match: payments-server\n      workers: 2")))
        .containsExactly(
            "exp.yaml: /method/faults/0/workers: unknown key; workers applies to cpu-burn,"
                + " not process-kill (line 15, column 7)");
  }

  @Test
  void anUnknownKeyIsRefusedInEverySectionOfTheDrill() {
    // A typo in any of these would otherwise drop the setting it meant, silently.
    assertThat(
            problems(
                replace(TEXT, "steady_state:\n  slis:", "steady_state:\n  colour: red\n  slis:")))
        .singleElement()
        .asString()
        .startsWith("exp.yaml: /steady_state/colour: unknown key; ");
    assertThat(
            problems(
                replace(
                    TEXT, "method:\n  duration: 10m", "method:\n  colour: red\n  duration: 10m")))
        .singleElement()
        .asString()
        .startsWith("exp.yaml: /method/colour: unknown key; ");
    assertThat(problems(replace(TEXT, "abort:\n  rules:", "abort:\n  colour: red\n  rules:")))
        .singleElement()
        .asString()
        .startsWith("exp.yaml: /abort/colour: unknown key; ");
    assertThat(
            problems(
                replace(TEXT, "      above: 0.05\n", "      above: 0.05\n      colour: red\n")))
        .singleElement()
        .asString()
        .startsWith("exp.yaml: /abort/rules/0/colour: unknown key; ");
    assertThat(problems(replace(TEXT, "    max: 14.4\n", "    max: 14.4\n    colour: red\n")))
        .singleElement()
        .asString()
        .startsWith("exp.yaml: /abort/burn_rate/colour: unknown key; ");
  }

  @Test
  void aShareOfExactlyOneIsAllowedAndOneOfExactlyAHundredIsAskedAbout() {
    assertThat(
            MinimalExperiment.load(replace(TEXT, "traffic_share: 0.05", "traffic_share: 1"))
                .blastRadius()
                .trafficShare())
        .isEqualTo(1.0);
    assertThat(problems(replace(TEXT, "traffic_share: 0.05", "traffic_share: 100")))
        .singleElement()
        .asString()
        .startsWith(
            "exp.yaml: /blast_radius/traffic_share: expected a share in (0, 1], such as 0.05 or"
                + " \"5%\", got 100; did you mean \"100%\" or 1?");
    assertThat(problems(replace(TEXT, "traffic_share: 0.05", "traffic_share: 0")))
        .singleElement()
        .asString()
        .startsWith("exp.yaml: /blast_radius/traffic_share: expected a share in (0, 1]");
  }

  @Test
  void aBurnRateObjectiveOfExactlyZeroOrOneAndAMaxOfExactlyZeroAreRefused() {
    for (String objective : new String[] {"0", "1"}) {
      assertThat(problems(replace(TEXT, "objective: 0.999", "objective: " + objective)))
          .containsExactly(
              "exp.yaml: /abort/burn_rate/objective: expected an objective strictly between 0 and 1,"
                  + " such as 0.999 or \"99.9%\", got "
                  + objective
                  + " (line 21, column 5)");
    }
    assertThat(problems(replace(TEXT, "    max: 14.4\n", "    max: 0\n")))
        .containsExactly(
            "exp.yaml: /abort/burn_rate/max: expected a burn rate greater than 0, such as 14.4, got 0"
                + " (line 22, column 5)");
  }

  @Test
  void unknownFaultKind() {
    assertThat(problems(replace(TEXT, "kind: process-kill", "kind: proces-kill")))
        .containsExactly(
            "exp.yaml: /method/faults/0/kind: unknown fault kind \"proces-kill\"; did you mean \"process-kill\"?"
                + " (line 13, column 7)");
    assertThat(problems(replace(TEXT, "kind: process-kill", "kind: network-delay")))
        .containsExactly(
            "exp.yaml: /method/faults/0/kind: unknown fault kind \"network-delay\"; expected one of: process-kill,"
                + " cpu-burn, http-latency, http-error, http-reset, http-timeout, exporter-down, command"
                + " (line 13, column 7)");
  }

  @Test
  void signalsAndMissingValues() throws Exception {
    String yaml =
        replace(TEXT, "match: payments-server", "match: payments-server\n      signal: sigterm");
    assertThat(
            ((FaultSpec.ProcessKill)
                    ExperimentLoader.load("exp.yaml", yaml).method().faults().get(0))
                .signal())
        .isEqualTo("TERM");
    assertThat(
            problems(
                replace(
                    TEXT,
                    "match: payments-server",
                    "match: payments-server\n      signal: SIGKIL")))
        .containsExactly(
            "exp.yaml: /method/faults/0/signal: unknown signal \"SIGKIL\"; did you mean \"KILL\"?"
                + " (line 15, column 7)");
    assertThat(problems(replace(TEXT, "max: 0.005", "max: 0.005\n      missing: failed")))
        .containsExactly(
            "exp.yaml: /steady_state/slis/0/missing: unknown value \"failed\"; did you mean \"fail\"? (line 10, column 7)");
    assertThat(problems(replace(TEXT, "max: 0.005", "max: 0.005\n      missing: ignore")))
        .containsExactly(
            "exp.yaml: /steady_state/slis/0/missing: unknown value \"ignore\"; expected one of: fail, inconclusive"
                + " (line 10, column 7)");
  }

  @Test
  void wrongTypes() {
    assertThat(problems(replace(TEXT, "max: 0.005", "max: abc")))
        .containsExactly(
            "exp.yaml: /steady_state/slis/0/max: expected a number, got \"abc\" (line 9, column 7)");
    assertThat(problems(replace(TEXT, "  slis:\n", "  slis: many\n  other:\n")))
        .contains("exp.yaml: /steady_state/slis: expected a list, got \"many\" (line 6, column 3)");
    assertThat(
            problems(replace(TEXT, "      above: 0.05\n", "      above: 0.05\n      for: 1.5\n")))
        .containsExactly(
            "exp.yaml: /abort/rules/0/for: expected a whole number of at least 1, got 1.5 (line 19, column 7)");
    assertThat(problems(replace(TEXT, "id: drill", "id: Drill One")))
        .containsExactly(
            "exp.yaml: /id: expected an id of lowercase letters, digits, '.', '_' and '-', such as checkout-latency,"
                + " got \"Drill One\" (line 1, column 1)");
  }

  @Test
  void badDurations() {
    assertThat(problems(replace(TEXT, "duration: 10m", "duration: 10 minutes")))
        .containsExactly(
            "exp.yaml: /method/duration: expected a duration such as 500ms, 30s, 5m, 1h or 30d, got \"10 minutes\""
                + " (line 11, column 3)");
    assertThat(problems(replace(TEXT, "duration: 10m", "duration: 600")))
        .containsExactly(
            "exp.yaml: /method/duration: expected a duration such as 500ms, 30s, 5m, 1h or 30d, got 600 without a unit"
                + " (line 11, column 3)");
    assertThat(problems(replace(TEXT, "duration: 10m", "duration: 0s")))
        .containsExactly(
            "exp.yaml: /method/duration: expected a duration greater than 0, got \"0s\" (line 11, column 3)");
    // Prometheus refuses units out of order; firedrill once added them up.
    assertThat(problems(replace(TEXT, "duration: 10m", "duration: 30s1h")))
        .containsExactly(
            "exp.yaml: /method/duration: expected a duration such as 500ms, 30s, 5m, 1h or 30d, got \"30s1h\"; units go"
                + " from the largest to the smallest, each at most once: y, w, d, h, m, s, ms (such as 1h30m)"
                + " (line 11, column 3)");
  }

  @Test
  void abortRuleNamingAnUnknownSli() {
    assertThat(problems(replace(TEXT, "sli: error_ratio", "sli: eror_ratio")))
        .containsExactly(
            "exp.yaml: /abort/rules/0/sli: no SLI named \"eror_ratio\" in steady_state; did you mean \"error_ratio\"?"
                + " (line 17, column 7)");
    assertThat(problems(replace(TEXT, "sli: error_ratio", "sli: latency")))
        .containsExactly(
            "exp.yaml: /abort/rules/0/sli: no SLI named \"latency\" in steady_state; the SLIs are: error_ratio"
                + " (line 17, column 7)");
  }

  @Test
  void minAboveMax() {
    assertThat(problems(replace(TEXT, "max: 0.005", "max: 0.005\n      min: 0.5")))
        .containsExactly(
            "exp.yaml: /steady_state/slis/0/min: expected min <= max, got min 0.5 above max 0.005 (line 10, column 7)");
  }

  @Test
  void crossChecks() {
    assertThat(
            problems(
                replace(TEXT, "      above: 0.05\n", "      above: 0.05\n      below: 0.01\n")))
        .containsExactly(
            "exp.yaml: /abort/rules/0/below: expected above or below, not both (line 19, column 7)");
    assertThat(
            problems(
                replace(
                    TEXT,
                    "      max: 0.005\n",
                    "      max: 0.005\n    - name: error_ratio\n      query: up\n"
                        + "      min: 1\n")))
        .containsExactly(
            "exp.yaml: /steady_state/slis/1/name: duplicate SLI name \"error_ratio\"; SLI names must be unique"
                + " (line 10, column 7)");
    assertThat(
            problems(
                replace(
                    TEXT,
                    "  url: http://127.0.0.1:9090\n",
                    "  url: http://127.0.0.1:9090\n  bearer_token_env: PROM_TOKEN\n  bearer_token_file: /run/token\n")))
        .containsExactly(
            "exp.yaml: /prometheus/bearer_token_file: expected bearer_token_env or bearer_token_file,"
                + " not both (line 6, column 3)");
    assertThat(problems(replace(TEXT, "title: A drill\n", "title: A drill\nid: again\n")))
        .containsExactly(
            "exp.yaml: /id: duplicate key; each key may appear once (line 3, column 1)");
  }

  @Test
  void tokenKeysAreRefusedWithoutShowingTheValue() {
    List<String> problems = fileProblems(FIXTURES.resolve("bad/token-in-file.yaml"));
    assertThat(problems)
        .containsExactly(
            "fixtures/bad/token-in-file.yaml: /prometheus/bearer_token: secrets are refused in an experiment file;"
                + " use bearer_token_env, bearer_token_file or basic_auth (username with password_env or password_file)"
                + " (line 5, column 3)",
            "fixtures/bad/token-in-file.yaml: /prometheus/password: secrets are refused in an experiment file;"
                + " use bearer_token_env, bearer_token_file or basic_auth (username with password_env or password_file)"
                + " (line 6, column 3)");
    assertThat(String.join("\n", problems)).doesNotContain("s3cr3t").doesNotContain("hunter2");

    String nested =
        replace(
            TEXT,
            "  url: http://127.0.0.1:9090\n",
            "  url: http://127.0.0.1:9090\n  token: abc-s3cr3t\n  headers:\n    Authorization: Bearer xyz-s3cr3t\n");
    assertThat(String.join("\n", problems(nested)))
        .doesNotContain("s3cr3t")
        .contains(
            "/prometheus/token: secrets are refused",
            "/prometheus/headers/Authorization: secrets are refused");

    String tokenAsEnvName =
        replace(
            TEXT,
            "  url: http://127.0.0.1:9090\n",
            "  url: http://127.0.0.1:9090\n  bearer_token_env: eyJ.s3cr3t-value\n");
    assertThat(problems(tokenAsEnvName))
        .containsExactly(
            "exp.yaml: /prometheus/bearer_token_env: expected the name"
                + " of an environment variable such as PROM_TOKEN, got a string (line 5, column 3)");
  }

  @Test
  void credentialsInTheUrlAreRefusedWithoutShowingThem() {
    assertThat(
            problems(replace(TEXT, "http://127.0.0.1:9090", "http://admin:s3cr3t@127.0.0.1:9090")))
        .containsExactly(
            "exp.yaml: /prometheus/url: credentials in the URL are refused; use bearer_token_env,"
                + " bearer_token_file or basic_auth (username with password_env or password_file) (line 4, column 3)");
    // A password holding an unencoded @ leaves java.net.URI no user-info, only an authority.
    assertThat(
            problems(replace(TEXT, "http://127.0.0.1:9090", "http://admin:s3@cr3t@127.0.0.1:9090")))
        .containsExactly(
            "exp.yaml: /prometheus/url: credentials in the URL are refused; use bearer_token_env,"
                + " bearer_token_file or basic_auth (username with password_env or password_file) (line 4, column 3)");
    assertThat(problems(replace(TEXT, "http://127.0.0.1:9090", "ftp://127.0.0.1:9090")))
        .containsExactly(
            "exp.yaml: /prometheus/url: expected an http or https URL such as http://127.0.0.1:9090,"
                + " got \"ftp://127.0.0.1:9090\" (line 4, column 3)");
  }

  @Test
  void malformedYamlHasLineAndColumn() {
    assertThat(fileProblems(FIXTURES.resolve("bad/malformed.yaml")))
        .containsExactly(
            "fixtures/bad/malformed.yaml: /steady_state/slis: malformed YAML: the indentation does not line up with"
                + " the lines above (expected <block end>, but found '<block mapping start>') (line 9, column 6)");
    assertThat(problems("id: x\ntitle: a: b\n"))
        .containsExactly(
            "exp.yaml: /: malformed YAML: mapping values are not allowed here (line 2, column 9)");
  }

  @Test
  void tabsAndByteOrderMarks() {
    assertThat(problems("id: x\ntitle:\t\tt\n"))
        .containsExactly(
            "exp.yaml: /: malformed YAML: found character"
                + " '\\t(TAB)' that cannot start any token. (Do not use \\t(TAB) for indentation) (line 2, column 7)");
    assertThat(problems("exp.json", "\uFEFF{\"id\": 5}"))
        .contains("exp.json: /id: expected a string, got 5 (line 1, column 2)");
  }

  @Test
  void malformedJsonHasLineAndColumnAndHidesTheToken() {
    assertThat(
            problems("exp.json", "{\"id\": \"x\",\n \"prometheus\": {\"bearer_token\": s3cr3t}}"))
        .containsExactly(
            "exp.json: /prometheus: malformed JSON: Unrecognized token (not shown): was expecting (JSON String, Number,"
                + " Array, Object or token 'null', 'true' or 'false') (line 2, column 33)");
  }

  @Test
  void emptyOrUnreadableFiles() {
    assertThat(problems(""))
        .containsExactly(
            "exp.yaml: /: expected an experiment: a mapping with id, title,"
                + " prometheus, steady_state, method, abort and blast_radius; the file is empty (line 1, column 1)");
    assertThat(fileProblems(Path.of("fixtures/none.yaml")))
        .containsExactly(
            "fixtures/none.yaml: /: cannot read: no such file (firedrill init --fault KIND writes"
                + " an experiment to start from)");
  }

  @Test
  void problemPrintsItsLocation() {
    assertThatThrownBy(() -> new ExperimentException(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new Problem("exp.yaml", "/abort", "missing", 1, 1))
        .hasToString("exp.yaml: /abort: missing (line 1, column 1)");
  }

  // --- the http-* faults: toxics on the fault proxy

  private static String withFault(String fault) {
    return replace(TEXT, "    - kind: process-kill\n      match: payments-server\n", fault);
  }

  private static FaultSpec onlyFault(String yaml) throws ExperimentException {
    return ExperimentLoader.load("exp.yaml", yaml).method().faults().get(0);
  }

  @Test
  void loadsEachHttpFaultWithItsDefaults() throws Exception {
    URI admin = URI.create("http://127.0.0.1:8474");
    assertThat(
            onlyFault(
                withFault(
                    """
            - kind: http-latency
              proxy: http://127.0.0.1:8474
              latency: 200ms
              ttl: 12m
        """)))
        .isEqualTo(
            new FaultSpec.HttpToxic(
                admin,
                "payments",
                1,
                new FaultSpec.HttpToxic.Latency(Duration.ofMillis(200), Duration.ZERO),
                Optional.of(Duration.ofMinutes(12)),
                Optional.empty()));
    assertThat(
            onlyFault(
                withFault(
                    """
            - kind: http-latency
              proxy: http://127.0.0.1:8474/
              proxy_name: orders
              percent: "5%"
              latency: 1s
              jitter: 50ms
              ttl: 12m
              admin_token_env: PROXY_TOKEN
        """)))
        .isEqualTo(
            new FaultSpec.HttpToxic(
                URI.create("http://127.0.0.1:8474/"),
                "orders",
                0.05,
                new FaultSpec.HttpToxic.Latency(Duration.ofSeconds(1), Duration.ofMillis(50)),
                Optional.of(Duration.ofMinutes(12)),
                Optional.of("PROXY_TOKEN")));
    FaultSpec error =
        onlyFault(
            withFault("    - {kind: http-error, proxy: 'http://127.0.0.1:8474', share: 0.05}\n"));
    assertThat(error)
        .isEqualTo(
            new FaultSpec.HttpToxic(
                admin,
                "payments",
                0.05,
                new FaultSpec.HttpToxic.Error(503),
                Optional.empty(),
                Optional.empty()));
    assertThat(error.kind()).isEqualTo("http-error");
    assertThat(error.target()).isEqualTo("requests through proxy payments (http://127.0.0.1:8474)");
    assertThat(
            ((FaultSpec.HttpToxic)
                    onlyFault(
                        withFault(
                            "    - {kind: http-error, proxy: 'http://127.0.0.1:8474', status: 500}\n")))
                .effect())
        .isEqualTo(new FaultSpec.HttpToxic.Error(500));
    assertThat(
            ((FaultSpec.HttpToxic)
                    onlyFault(
                        withFault("    - {kind: http-reset, proxy: 'http://127.0.0.1:8474'}\n")))
                .effect())
        .isEqualTo(new FaultSpec.HttpToxic.Reset());
    assertThat(
            ((FaultSpec.HttpToxic)
                    onlyFault(
                        withFault("    - {kind: http-timeout, proxy: 'http://127.0.0.1:8474'}\n")))
                .effect())
        .isEqualTo(new FaultSpec.HttpToxic.Timeout(Duration.ZERO));
    assertThat(
            ((FaultSpec.HttpToxic)
                    onlyFault(
                        withFault(
                            "    - {kind: http-timeout, proxy: 'http://127.0.0.1:8474', timeout: 3s}\n")))
                .effect())
        .isEqualTo(new FaultSpec.HttpToxic.Timeout(Duration.ofSeconds(3)));
  }

  @Test
  void httpFaultProblemsNameTheFieldAndTheExpectation() {
    assertThat(
            problems(
                withFault(
                    """
            - kind: http-latency
              share: 150
              proxy_name: "pay ments"
              jitter: 20
              admin_token_env: 9LIVES
        """)))
        .containsExactly(
            "exp.yaml: /method/faults/0/proxy: missing; http-latency needs proxy: the URL of the fault proxy's admin API,"
                + " such as http://127.0.0.1:8474 (line 13, column 7)",
            "exp.yaml: /method/faults/0/latency: missing; http-latency needs latency: the delay to add, such as 200ms"
                + " (line 13, column 7)",
            "exp.yaml: /method/faults/0/share: expected a share in (0, 1], such as 0.05 or \"5%\", got 150"
                + " (line 14, column 7)",
            "exp.yaml: /method/faults/0/proxy_name: expected a proxy name of letters, digits, '.', '_' and '-',"
                + " such as payments, got \"pay ments\" (line 15, column 7)",
            "exp.yaml: /method/faults/0/jitter: expected a duration such as 500ms, 30s, 5m, 1h or 30d, got 20 without"
                + " a unit (line 16, column 7)",
            "exp.yaml: /method/faults/0/admin_token_env: expected the name of an environment variable such as"
                + " PROXY_TOKEN, got \"9LIVES\" (line 17, column 7)");
    assertThat(
            problems(
                withFault(
                    "    - {kind: http-error, proxy: 'ftp://127.0.0.1:8474', status: 302}\n")))
        .containsExactly(
            "exp.yaml: /method/faults/0/proxy: expected an http or https URL such as http://127.0.0.1:8474,"
                + " got \"ftp://127.0.0.1:8474\" (line 13, column 26)",
            "exp.yaml: /method/faults/0/status: expected an HTTP error status from 400 to 599, such as 503,"
                + " got 302 (line 13, column 57)");
    assertThat(
            problems(
                withFault("    - {kind: http-reset, proxy: 'http://admin:pw@127.0.0.1:8474'}\n")))
        .containsExactly(
            "exp.yaml: /method/faults/0/proxy: credentials in the URL are refused; use admin_token_env"
                + " (line 13, column 26)");
  }

  @Test
  void everyShareIsAFractionOrAPercentageString() throws Exception {
    String fault = "    - {kind: http-error, proxy: 'http://127.0.0.1:8474', ";
    assertThat(((FaultSpec.HttpToxic) onlyFault(withFault(fault + "share: 0.2}\n"))).share())
        .isEqualTo(0.2);
    assertThat(((FaultSpec.HttpToxic) onlyFault(withFault(fault + "share: '20%'}\n"))).share())
        .isEqualTo(0.2);
    assertThat(((FaultSpec.HttpToxic) onlyFault(withFault(fault + "percent: '20%'}\n"))).share())
        .isEqualTo(0.2);
    assertThat(
            ((FaultSpec.ProcessKill)
                    onlyFault(
                        withFault(
                            "    - {kind: process-kill, match: payments-server, share: '25%'}\n")))
                .share())
        .contains(0.25);
  }

  @Test
  void aBarePercentIsRefusedNamingBothReadings() {
    String fault = "    - {kind: http-error, proxy: 'http://127.0.0.1:8474', ";
    assertThat(problems(withFault(fault + "percent: 0.2}\n")))
        .containsExactly(
            "exp.yaml: /method/faults/0/percent: a bare number is ambiguous here: every share is a fraction (0.2 is 20%)"
                + " or a percentage string; did you mean share: 0.2 (20% of the requests) or \"0.2%\"? (line 13, column 58)");
    assertThat(problems(withFault(fault + "percent: 20}\n")))
        .containsExactly(
            "exp.yaml: /method/faults/0/percent: a bare number is ambiguous here: every share is a fraction (0.2 is 20%)"
                + " or a percentage string; did you mean \"20%\" (share: 0.2)? (line 13, column 58)");
    assertThat(
            problems(
                withFault("    - {kind: process-kill, match: payments-server, percent: 50}\n")))
        .containsExactly(
            "exp.yaml: /method/faults/0/percent: a bare number is ambiguous here: every share is a"
                + " fraction (0.2 is 20%) or a percentage string; did you mean \"50%\" (share: 0.5)? (line 13, column 52)");
    assertThat(problems(withFault(fault + "percent: 250}\n")))
        .containsExactly(
            "exp.yaml: /method/faults/0/percent: expected a share in (0, 1], such as 0.05 or \"5%\", got 250"
                + " (line 13, column 58)");
    assertThat(problems(withFault(fault + "share: 0.2, percent: '20%'}\n")))
        .containsExactly(
            "exp.yaml: /method/faults/0/percent: share and percent say the same thing; keep share, such as 0.05 or"
                + " \"5%\" of the requests (line 13, column 70)");
  }

  @Test
  void aShareAboveOneSuggestsThePercentageItMeant() {
    assertThat(
            problems(
                withFault("    - {kind: http-error, proxy: 'http://127.0.0.1:8474', share: 20}\n")))
        .containsExactly(
            "exp.yaml: /method/faults/0/share: expected a share in (0, 1], such as 0.05 or \"5%\","
                + " got 20; did you mean \"20%\" or 0.2? (line 13, column 58)");
  }

  @Test
  void httpFaultUnknownKeysNameTheKindTheyBelongTo() {
    assertThat(
            problems(
                withFault(
                    "    - {kind: http-error, proxy: 'http://127.0.0.1:8474', latency: 1s}\n")))
        .containsExactly(
            "exp.yaml: /method/faults/0/latency: unknown key; latency applies to http-latency,"
                + " not http-error (line 13, column 58)");
    assertThat(
            problems(
                withFault(
                    "    - {kind: http-reset, proxy: 'http://127.0.0.1:8474', workers: 2}\n")))
        .containsExactly(
            "exp.yaml: /method/faults/0/workers: unknown key; workers applies to cpu-burn,"
                + " not http-reset (line 13, column 58)");
    assertThat(
            problems(
                withFault(
                    "    - {kind: http-latency, proxy: 'http://127.0.0.1:8474', latency: 1s, proxyname: x}\n")))
        .containsExactly(
            "exp.yaml: /method/faults/0/proxyname: unknown key; did you mean \"proxy_name\"?"
                + " (line 13, column 73)");
    assertThat(problems(withFault("    - {kind: cpu-burn, workers: 1, percent: 5}\n")))
        .containsExactly(
            "exp.yaml: /method/faults/0/percent: unknown key; percent applies to process-kill,"
                + " http-latency, http-error, http-reset, http-timeout, not cpu-burn (line 13, column 36)");
  }

  // --- exporter-down: a toxic at 100% on the proxy Prometheus scrapes a service through

  @Test
  void loadsExporterDownWithItsDefaults() throws Exception {
    URI admin = URI.create("http://127.0.0.1:18475");
    FaultSpec down =
        onlyFault(
            withFault(
                """
            - kind: exporter-down
              proxy: http://127.0.0.1:18475
              proxy_name: payments-metrics
              ttl: 2m
        """));
    assertThat(down)
        .isEqualTo(
            new FaultSpec.ExporterDown(
                admin,
                "payments-metrics",
                FaultSpec.ExporterDown.Mode.ERROR,
                Optional.of(Duration.ofMinutes(2)),
                Optional.empty()));
    assertThat(down.kind()).isEqualTo("exporter-down");
    assertThat(down.target())
        .isEqualTo("scrapes through proxy payments-metrics (http://127.0.0.1:18475)");
    assertThat(((FaultSpec.ExporterDown) down).toxic())
        .isEqualTo(
            new FaultSpec.HttpToxic(
                admin,
                "payments-metrics",
                1,
                new FaultSpec.HttpToxic.Error(503),
                Optional.of(Duration.ofMinutes(2)),
                Optional.empty()));

    FaultSpec reset =
        onlyFault(
            withFault(
                "    - {kind: exporter-down, proxy: 'http://127.0.0.1:18475',"
                    + " proxy_name: orders-metrics, mode: RESET, ttl: 1m, admin_token_env: PROXY_TOKEN}\n"));
    assertThat(reset)
        .isEqualTo(
            new FaultSpec.ExporterDown(
                admin,
                "orders-metrics",
                FaultSpec.ExporterDown.Mode.RESET,
                Optional.of(Duration.ofMinutes(1)),
                Optional.of("PROXY_TOKEN")));
    assertThat(((FaultSpec.ExporterDown) reset).toxic().effect())
        .isEqualTo(new FaultSpec.HttpToxic.Reset());
  }

  @Test
  void exporterDownProblemsNameTheFieldAndTheExpectation() {
    assertThat(problems(withFault("    - {kind: exporter-down}\n")))
        .containsExactly(
            "exp.yaml: /method/faults/0/proxy: missing; exporter-down needs proxy: the URL of the admin API of the fault"
                + " proxy in front of the metrics endpoint, such as http://127.0.0.1:18475 (line 13, column 7)",
            "exp.yaml: /method/faults/0/proxy_name: missing; exporter-down needs proxy_name: the name of the fault proxy"
                + " that Prometheus scrapes the service through, such as payments-metrics (line 13, column 7)");
    assertThat(
            problems(
                withFault(
                    """
            - kind: exporter-down
              proxy: ftp://127.0.0.1:18475
              proxy_name: "payments metrics"
              mode: timeout
              admin_token_env: 9LIVES
        """)))
        .containsExactly(
            "exp.yaml: /method/faults/0/proxy: expected an http or https URL such as http://127.0.0.1:18475,"
                + " got \"ftp://127.0.0.1:18475\" (line 14, column 7)",
            "exp.yaml: /method/faults/0/proxy_name: expected a proxy name of letters, digits, '.', '_' and '-',"
                + " such as payments-metrics, got \"payments metrics\" (line 15, column 7)",
            "exp.yaml: /method/faults/0/mode: unknown mode \"timeout\"; expected one of: error, reset (line 16, column 7)",
            "exp.yaml: /method/faults/0/admin_token_env: expected the name of an environment variable such as"
                + " PROXY_TOKEN, got \"9LIVES\" (line 17, column 7)");
    assertThat(
            problems(
                withFault(
                    "    - {kind: exporter-down, proxy: 'http://admin:pw@127.0.0.1:18475',"
                        + " proxy_name: m}\n")))
        .containsExactly(
            "exp.yaml: /method/faults/0/proxy: credentials in the URL are refused;"
                + " use admin_token_env (line 13, column 29)");
  }

  @Test
  void exporterDownUnknownKeysNameTheNearestKeyOrTheKindTheyBelongTo() {
    String fault = "    - {kind: exporter-down, proxy: 'http://127.0.0.1:18475', proxy_name: m, ";
    assertThat(problems(withFault(fault + "mdoe: reset}\n")))
        .containsExactly(
            "exp.yaml: /method/faults/0/mdoe: unknown key; did you mean \"mode\"? (line 13, column 77)");
    assertThat(problems(withFault(fault + "percent: 50}\n")))
        .containsExactly(
            "exp.yaml: /method/faults/0/percent: unknown key; percent applies to process-kill, http-latency, http-error,"
                + " http-reset, http-timeout, not exporter-down: exporter-down fails every scrape (line 13, column 77)");
    assertThat(problems(withFault(fault + "status: 500}\n")))
        .containsExactly(
            "exp.yaml: /method/faults/0/status: unknown key; status applies to http-error, not exporter-down:"
                + " exporter-down answers 503 (mode: error) or resets the connection (mode: reset) (line 13, column 77)");
    assertThat(
            problems(
                withFault(
                    "    - {kind: http-error, proxy: 'http://127.0.0.1:8474', mode: reset}\n")))
        .containsExactly(
            "exp.yaml: /method/faults/0/mode: unknown key; mode applies to exporter-down,"
                + " not http-error (line 13, column 58)");
  }
}
