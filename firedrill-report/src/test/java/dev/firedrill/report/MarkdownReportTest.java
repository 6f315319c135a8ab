package dev.firedrill.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The ticket write-up of the two sample drills, exactly. */
class MarkdownReportTest {

  static DrillRecord journal(String name) throws IOException {
    return JournalReader.read(Path.of("fixtures/testdata/journals", name + ".journal.json"));
  }

  @Test
  void aHeldLatencyDrillReportsNoGapsAndItsRecoveryTime() throws IOException {
    assertThat(MarkdownReport.render(journal("payments-latency")))
        .isEqualTo(
            """
        ## Experiment: 50 ms more payments latency on half the calls keeps checkout within its SLO

        Experiment: `payments-latency`, owner team-checkout \s
        Date: 2026-11-29 21:19:15 UTC \s
        Duration: 20s planned; faults on for 20.2s \s
        Faults: http-latency \s
        Verdict: **held**: 10 measurements while the faults were on within steady state; recovered 0.1s after the rollback \s
        Observability: **held**: 2 expected alerts behaved as expected \s
        Error budget: 0% spent (measured from the burn rate), worst case 0.3858% against a ceiling of 2% \s

        ### Hypothesis

        Checkout absorbs 50 ms of extra payments latency on half its calls; no order ends pending.

        - checkout_error_ratio stays <= 0.01 (`service:http_error_ratio:rate5s{service="checkout"}`)
        - checkout_p99_seconds stays <= 0.25 (`service:http_request_duration_seconds:p99_5s{service="checkout"}`)
        - orders_completed_ratio stays >= 0.99 (`checkout:orders_completed:ratio5s`)
        - the burn rate stays <= 14.4 (objective 99.9% over 30d)
        - CheckoutErrorBudgetBurn stays silent for 30s after injection
        - CheckoutOrdersPending stays silent for 30s after injection
        - back in steady state within 30s of the rollback

        ### Actual Behavior

        - checkout_error_ratio: 0 before; highest 0 while the faults were on (within <= 0.01)
        - checkout_p99_seconds: 0.02485 before; highest 0.1315 while the faults were on (within <= 0.25)
        - orders_completed_ratio: 1 before; lowest 1 while the faults were on (within >= 0.99)
        - Rolled back 20.2s after injection, every fault reverted
        - CheckoutErrorBudgetBurn: stayed silent for 30s after injection
        - CheckoutOrdersPending: stayed silent for 30s after injection

        ### Gaps

        None found: the system and its alerts behaved as the hypothesis says.

        ### Recovery Time

        0.1s from the rollback to steady state (the hypothesis allows 30s).

        ### Actions

        - [ ] Re-run this drill on its schedule to catch regressions
        """);
  }

  @Test
  void anAbortedOutageDrillListsEachBreachAndTheAbortAsGapsWithActions() throws IOException {
    assertThat(MarkdownReport.render(journal("payments-outage")))
        .isEqualTo(
            """
        ## Experiment: A payments outage is stopped by the burn-rate guard within one measurement

        Experiment: `payments-outage`, owner team-checkout \s
        Date: 2026-11-29 21:20:02 UTC \s
        Duration: 1m planned; faults on for 1.3s \s
        Faults: http-error \s
        Verdict: **aborted**: burn rate 62.72 above 14.4 (error ratio 0.06272 against an objective of 99.9%); recovered 5.3s after the rollback \s
        Observability: **held**: 3 expected alerts behaved as expected \s
        Error budget: 0.05018% spent (measured from the burn rate), worst case 2.315% against a ceiling of 5% \s

        ### Hypothesis

        Checkout survives payments answering 503 (it will not; the guard is what is being tested).

        - checkout_error_ratio stays <= 0.01 (`service:http_error_ratio:rate5s{service="checkout"}`)
        - orders_completed_ratio stays >= 0.99 (`checkout:orders_completed:ratio5s`)
        - the burn rate stays <= 14.4 (objective 99.9% over 30d)
        - CheckoutErrorBudgetBurn{service="checkout"} fires within 30s of injection
        - CheckoutOrdersPending fires within 30s of injection
        - PaymentsDown stays silent for 30s after injection
        - back in steady state within 30s of the rollback

        ### Actual Behavior

        - checkout_error_ratio: 0 before; highest 0.06272 while the faults were on (gap)
        - orders_completed_ratio: 1 before; lowest 0.9373 while the faults were on (gap)
        - Aborted 1.2s after injection: burn rate 62.72 above 14.4 (error ratio 0.06272 against an objective of 99.9%)
        - Rolled back 1.2s after injection, every fault reverted
        - CheckoutErrorBudgetBurn{service="checkout"}: fired 0.7s after injection, notified 1.0s later; routed to team-checkout
        - CheckoutOrdersPending: fired 5.7s after injection; routed to team-payments
        - PaymentsDown: stayed silent for 30s after injection

        ### Gaps

        1. checkout_error_ratio left its healthy range (<= 0.01) while the faults were on: worst 0.06272, first 1.1s after injection, in 1 measurement
        2. orders_completed_ratio left its healthy range (>= 0.99) while the faults were on: lowest 0.9373, first 1.1s after injection, in 1 measurement
        3. The drill was aborted: burn rate 62.72 above 14.4 (error ratio 0.06272 against an objective of 99.9%); the system did not contain the fault within the guard

        ### Recovery Time

        5.3s from the rollback to steady state (the hypothesis allows 30s).

        ### Actions

        - [ ] Find why checkout_error_ratio leaves <= 0.01 under http-error, and fix it
        - [ ] Find why orders_completed_ratio leaves >= 0.99 under http-error, and fix it
        - [ ] Contain http-error so the abort guard does not have to stop the drill
        - [ ] Re-run the experiment after the changes
        """);
  }

  @Test
  void aSimulationSaysSoInEveryReport() throws IOException {
    com.fasterxml.jackson.databind.node.ObjectNode tree = Journals.tree("payments-outage");
    tree.putObject("simulation").put("rate_per_second", 20);
    DrillRecord simulated = Journals.record(tree);
    DrillRecord real = Journals.record(Journals.tree("payments-outage"));

    assertThat(MarkdownReport.render(simulated))
        .contains("\n\n> **" + DrillRecord.SIMULATED + "**\n\n");
    assertThat(HtmlReport.render(simulated))
        .contains("<title>SIMULATED ")
        .contains("<p id=\"simulated\" class=\"simulated\"><strong>Simulated: a prediction");
    assertThat(JunitReport.render(simulated))
        .contains("<testsuite name=\"firedrill.simulated.")
        .contains("<property name=\"simulated\" value=\"Simulated: a prediction");
    assertThat(MarkdownReport.render(real) + HtmlReport.render(real) + JunitReport.render(real))
        .doesNotContain("a prediction by firedrill simulate")
        .doesNotContain("id=\"simulated\"")
        .doesNotContain("firedrill.simulated.");
  }

  @Test
  void aTitleCannotOpenATagInTheTicketButRangesStayReadable() {
    assertThat(MarkdownReport.text("<script>alert(1)</script> keeps p99 <= 0.25 & </b>"))
        .isEqualTo("&lt;script>alert(1)&lt;/script> keeps p99 <= 0.25 & &lt;/b>");
  }
}
