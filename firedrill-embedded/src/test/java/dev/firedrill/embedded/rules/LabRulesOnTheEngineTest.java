package dev.firedrill.embedded.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.firedrill.embedded.notify.OutgoingAlert;
import dev.firedrill.embedded.rules.snapshot.AlertSnapshot;
import dev.firedrill.embedded.rules.snapshot.RuleSnapshot;
import dev.firedrill.embedded.storage.MemoryStorage;
import dev.firedrill.promql.eval.Engine;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.StoredSeries;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The lab's recording rules and alerts on the real PromQL engine and storage, on a virtual clock:
 * checkout answers 10 requests a second, one in ten a 5xx from second 20 on.
 */
class LabRulesOnTheEngineTest {

  private static final long T0 = 1_700_000_000_000L;

  @Test
  void theErrorBudgetBurnFiresOnTheRecordedRatioWithinSecondsOfTheErrors() {
    MemoryStorage storage = new MemoryStorage();
    List<RuleGroupSpec> groups =
        RuleFileLoader.withPromql()
            .load(
                List.of(
                    Path.of("fixtures/lab/recording-rules.yml"),
                    Path.of("alert-rules/lab-alerts.yml")));
    List<List<OutgoingAlert>> sent = new ArrayList<>();
    RuleManager manager =
        new RuleManager(
            groups,
            new RuleManager.Options(1000, 60_000, Map.of(), "http://lab:9090"),
            new EngineRuleQuery(new Engine(storage, Engine.Options.defaults())),
            storage,
            sent::add,
            () -> 0L);
    LabelSet ok =
        LabelSet.of("__name__", "http_server_requests_total", "service", "checkout", "code", "200");
    LabelSet failed =
        LabelSet.of("__name__", "http_server_requests_total", "service", "checkout", "code", "500");
    long firstFiring = -1;
    for (int s = 0; s <= 60; s++) {
      long now = T0 + s * 1000L;
      storage.append(ok, now, 9.0 * s);
      storage.append(failed, now, Math.max(0, s - 20));
      manager.evaluateDue(now);
      boolean firing =
          manager.alerts().stream().anyMatch(a -> isBurn(a) && a.state().equals("firing"));
      if (firing && firstFiring < 0) {
        firstFiring = s;
      }
    }
    // The 30 s window passes 1.44% with the 4th error (4 of 265 requests) at second 24; the
    // recording
    // group's slot falls up to 1 s after a sample, and the alert group reads the recorded ratio at
    // its
    // own slot, which may come before the recording group's within that second.
    assertThat(firstFiring).as("seconds until CheckoutErrorBudgetBurn fires").isBetween(25L, 26L);
    AlertSnapshot burn =
        manager.alerts().stream().filter(LabRulesOnTheEngineTest::isBurn).findFirst().orElseThrow();
    assertThat(burn.labels())
        .isEqualTo(
            Map.of(
                "alertname",
                "CheckoutErrorBudgetBurn",
                "service",
                "checkout",
                "severity",
                "page",
                "team",
                "checkout"));
    assertThat(sent)
        .flatExtracting(batch -> batch)
        .anyMatch(a -> a.labels().get("alertname").equals("CheckoutErrorBudgetBurn"));

    StoredSeries ratio =
        storage
            .select(
                List.of(
                    LabelMatcher.of(
                        LabelMatcher.Type.EQUAL, "__name__", "service:http_error_ratio:rate5s")),
                T0 + 59_000,
                T0 + 61_000)
            .get(0);
    assertThat(ratio.labels())
        .isEqualTo(
            LabelSet.of("__name__", "service:http_error_ratio:rate5s", "service", "checkout"));
    assertThat(ratio.values()[ratio.count() - 1]).isCloseTo(0.1, within(1e-12));

    for (RuleSnapshot rule : manager.groups().get(0).rules()) {
      assertThat(rule.health()).as(rule.name()).isEqualTo("ok");
    }
  }

  private static boolean isBurn(AlertSnapshot alert) {
    return alert.labels().get("alertname").equals("CheckoutErrorBudgetBurn");
  }
}
