package dev.firedrill.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The provisioning API's alert rules, in the shape Grafana's documentation gives. */
class GrafanaRuleDetailsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void readsUidTitleConditionForAndTheTwoStatesWithGrafanasDefaults() throws Exception {
    List<GrafanaRuleDetails> rules =
        GrafanaRuleDetails.parse(
            JSON.readTree(
                """
                [{"id": 7, "uid": "ddlo0d8rv3ocgd", "orgID": 1, "folderUID": "payments",
                  "ruleGroup": "checkout", "title": "Checkout error ratio high",
                  "condition": "C", "data": [], "updated": "2026-12-01T09:00:00Z",
                  "noDataState": "Alerting", "execErrState": "OK", "for": "5m0s",
                  "annotations": {}, "labels": {"team": "payments"}, "provenance": "",
                  "isPaused": false},
                 {"uid": "bdlo0e1tq8hs0a", "title": "Checkout latency high", "condition": "B",
                  "for": "2m"},
                 {"title": "no uid, skipped"}]
                """));

    assertThat(rules)
        .containsExactly(
            new GrafanaRuleDetails(
                "ddlo0d8rv3ocgd",
                "Checkout error ratio high",
                "C",
                Optional.of(Duration.ofMinutes(5)),
                "Alerting",
                "OK"),
            new GrafanaRuleDetails(
                "bdlo0e1tq8hs0a",
                "Checkout latency high",
                "B",
                Optional.of(Duration.ofMinutes(2)),
                "NoData",
                "Error"));
  }

  @Test
  void anAnswerThatIsNotAnArrayIsMalformed() {
    assertThatThrownBy(() -> GrafanaRuleDetails.parse(JSON.readTree("{\"message\":\"x\"}")))
        .isInstanceOf(ResponseParser.Malformed.class)
        .hasMessage("the answer is not a JSON array of alert rules");
  }
}
