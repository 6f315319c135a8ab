package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.PrometheusSource;
import dev.firedrill.testing.ControlGroup;
import dev.firedrill.testing.ScriptedDrill;
import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The journal of one whole scripted drill, field by field: two faults, the first selecting a
 * target, the second never going away (its revert is retried, then handed to a human). Each field
 * is what cleanup, the report and a human reading the file rely on.
 */
class JournalTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }

  private final ScriptedDrill drill = new ScriptedDrill();

  private ObjectNode run() {
    drill.fault("burn").selects("payments-0");
    drill.fault("stuck").failsToRevert(5);
    return drill.run().journal().json();
  }

  @Test
  void theExperimentIsDescribedWithPlacesAndNamesOnly() throws Exception {
    assertThat(run().get("experiment"))
        .isEqualTo(
            json(
                """
                {"id": "checkout-latency", "title": "Checkout under CPU pressure", "owner": "sre",
                 "file": "scripted-drill.yaml", "prometheus": "http://127.0.0.1:9090",
                 "prometheus_token": "none", "prometheus_auth": "none",
                 "hypothesis": "errors stay under 1%", "interval": "5s", "duration": "1m",
                 "recovery": "30s",
                 "slis": [{"name": "error_ratio", "query": "errors / requests", "range": "<= 0.01",
                           "missing": "fail"}],
                 "burn_rate": {"objective": 0.999, "window": "30d",
                               "error_ratio": "sum(rate(errors[5m])) / sum(rate(requests[5m]))",
                               "max": 100.0}}
                """));
  }

  @Test
  void anExperimentsRulesUrlAndControlQueriesAreDescribedToo() {
    Experiment controlled = new ControlGroup(drill, 0.30).experiment();
    Experiment experiment =
        drill
            .experiment()
            .prometheus(
                new PrometheusSource(
                    URI.create("http://127.0.0.1:9090"),
                    null,
                    null,
                    Optional.of(URI.create("http://127.0.0.1:8880/vmalert")),
                    null))
            .steadyState(controlled.steadyState())
            .build();

    JsonNode described = drill.run(experiment).journal().json().get("experiment");

    assertThat(described.get("prometheus_rules_url").asText())
        .isEqualTo("http://127.0.0.1:8880/vmalert");
    assertThat(described.get("slis").get(0).has("control")).isFalse();
    assertThat(described.get("slis").get(1).get("control").asText())
        .isEqualTo(ControlGroup.P95_CONTROL);
    assertThat(described.get("slis").get(1).get("range").asText())
        .isEqualTo("delta <= 0.05 vs control");
  }

  @Test
  void theDrillsTimesPlanFaultsAndVerdictAreJournaled() throws Exception {
    ObjectNode journal = run();
    journal.remove(java.util.List.of("experiment", "events", "measurements"));

    // The stuck fault is reverted first (reverse order) and retried after 0.5 s and 1 s, so the
    // first fault's revert and everything after it are 1.5 s past the rollback.
    assertThat(journal)
        .isEqualTo(
            json(
                """
                {"firedrill_journal": 1, "started_at": "2026-11-29T10:00:00Z",
                 "plan": {"refusals": [],
                          "budget": "error budget: 99.9% over 30d allows 43.20 min of total outage;\
                 worst case 5% of traffic for 1m spends 0.05 min, 0.1157% of the budget (ceiling 5%)"},
                 "faults": [
                   {"index": 0, "kind": "cpu-burn",
                    "spec": {"kind": "cpu-burn", "workers": 1, "ttl": "30m"},
                    "ttl_enforced_by": "the injector", "plan": ["apply burn"],
                    "injected": true, "started_at": "2026-11-29T10:00:00Z", "reverted": true,
                    "state": {"applied": true, "name": "burn"}, "selected": ["payments-0"],
                    "injected_at": "2026-11-29T10:00:00Z",
                    "revert": {"at": "2026-11-29T10:01:01.500Z", "ok": true, "attempts": 1,
                               "detail": "burn gone"}},
                   {"index": 1, "kind": "cpu-burn",
                    "spec": {"kind": "cpu-burn", "workers": 1, "ttl": "30m"},
                    "ttl_enforced_by": "the injector", "plan": ["apply stuck"],
                    "injected": true, "started_at": "2026-11-29T10:00:00Z", "reverted": false,
                    "state": {"applied": true, "name": "stuck"},
                    "injected_at": "2026-11-29T10:00:00Z",
                    "revert": {"at": "2026-11-29T10:01:01.500Z", "ok": false, "attempts": 3,
                               "detail": "stuck refused to go", "manual_command": "undo stuck"}}],
                 "injected_at": "2026-11-29T10:00:00Z", "rollback_at": "2026-11-29T10:01:00Z",
                 "rollback_done_at": "2026-11-29T10:01:01.500Z",
                 "recovered_at": "2026-11-29T10:01:01.500Z", "recovery_seconds": 0.0,
                 "verdict": "held",
                 "reason": "12 measurements while the faults were on within steady state;\
                 recovered 0.0s after the rollback",
                 "rollback_ok": false, "finished_at": "2026-11-29T10:01:01.500Z"}
                """));
  }

  @Test
  void eachMeasurementAndEventIsJournaledWithItsTimeOffsetAndPhase() throws Exception {
    ObjectNode journal = run();

    assertThat(journal.get("measurements")).hasSize(1 + 12 + 1);
    assertThat(journal.get("measurements").get(1))
        .isEqualTo(
            json(
                """
                {"at": "2026-11-29T10:00:05Z", "offset_s": 5.0, "phase": "during", "status": "ok",
                 "readings": [
                   {"name": "error_ratio", "status": "ok", "value": 0.001, "expectation": "<= 0.01"},
                   {"name": "burn_rate", "status": "ok", "value": 0.9999999999999991,
                    "expectation": "<= 100",
                    "detail": "error ratio 0.001 against an objective of 99.9%"}]}
                """));
    assertThat(journal.get("events").get(3))
        .isEqualTo(
            json(
                """
                {"at": "2026-11-29T10:00:00Z", "offset_s": 0.0, "phase": "before",
                 "text": "ok: error_ratio 0.001 <= 0.01, burn_rate 1 <= 100"}
                """));
    java.util.List<String> expected =
        new java.util.ArrayList<>(
            java.util.List.of(
                "plan 0.0", "plan 0.0", "plan 0.0", "before 0.0", "inject 0.0", "inject 0.0"));
    for (int second = 5; second <= 60; second += 5) {
      expected.add("during " + second + ".0");
    }
    expected.addAll(
        java.util.List.of(
            "rollback 61.5", "rollback 61.5", "after 61.5", "verdict 61.5", "verdict 61.5"));
    assertThat(journal.get("events"))
        .extracting(event -> event.get("phase").asText() + " " + event.get("offset_s").asDouble())
        .containsExactlyElementsOf(expected);
  }
}
