package dev.firedrill.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.alerting.routes.RouteTree;
import dev.firedrill.experiment.AlertExpectation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AlertPlanTest {

  private static final RuleBook RULES =
      new RuleBook(
          List.of(
              new RuleBook.AlertRule(
                  "CheckoutErrorBudgetBurn",
                  "rate(errors[1m]) > 0.1",
                  Duration.ZERO,
                  Duration.ofSeconds(15),
                  Map.of("severity", "page"),
                  Map.of()),
              new RuleBook.AlertRule(
                  "PaymentsDown",
                  "up == 0",
                  Duration.ZERO,
                  Duration.ofSeconds(15),
                  Map.of(),
                  Map.of())),
          Map.of(),
          Duration.ofSeconds(15),
          Duration.ofSeconds(15));

  private static RouteTree routes() throws Exception {
    return RouteTree.parse(
        "alertmanager.yml",
        """
        route:
          receiver: default
          routes:
            - matchers: ['severity="page"']
              receiver: oncall-pager
        receivers:
          - name: default
          - name: oncall-pager
        """);
  }

  private static AlertExpectation expect(String alert, String receiver) {
    return new AlertExpectation(
        alert,
        Map.of(),
        AlertExpectation.Expect.FIRING,
        Duration.ofMinutes(2),
        Optional.ofNullable(receiver),
        Optional.empty(),
        Optional.empty(),
        false);
  }

  @Test
  void anAlertNoRuleDefinesIsRefusedWithTheNearestRuleName() {
    AlertPlan.Result result =
        AlertPlan.of(List.of(expect("CheckoutErrorBudgetBrun", null)), RULES, Optional.empty());
    assertThat(result.refusals())
        .containsExactly(
            "hypothesis.alerts: CheckoutErrorBudgetBrun is defined by no alerting rule of"
                + " Prometheus; did you mean \"CheckoutErrorBudgetBurn\"?");
  }

  @Test
  void anAlertFarFromEveryRuleListsThem() {
    AlertPlan.Result result =
        AlertPlan.of(List.of(expect("DiskFull", null)), RULES, Optional.empty());
    assertThat(result.refusals())
        .containsExactly(
            "hypothesis.alerts: DiskFull is defined by no alerting rule of Prometheus; its"
                + " alerting rules are CheckoutErrorBudgetBurn, PaymentsDown");
  }

  @Test
  void aReceiverNoRouteNamesIsRefusedWithTheNearestReceiver() throws Exception {
    AlertPlan.Result result =
        AlertPlan.of(
            List.of(expect("CheckoutErrorBudgetBurn", "oncall-pagr")),
            RULES,
            Optional.of(routes()));
    assertThat(result.refusals())
        .containsExactly(
            "hypothesis.alerts: CheckoutErrorBudgetBurn expects receiver \"oncall-pagr\", which no"
                + " route of alertmanager.yml names; did you mean \"oncall-pager\"?");
    assertThat(result.lines()).isEmpty();
  }

  @Test
  void aReceiverThatIsNamedButNotReachedIsPlannedAsMisrouted() throws Exception {
    AlertPlan.Result result =
        AlertPlan.of(List.of(expect("PaymentsDown", "oncall-pager")), RULES, Optional.of(routes()));
    assertThat(result.refusals()).isEmpty();
    assertThat(result.lines()).hasSize(1);
    assertThat(result.lines().get(0))
        .endsWith(
            "; routes to default, not the expected oncall-pager: the drill will report it"
                + " misrouted");
  }

  private static final RuleBook GRAFANA =
      new RuleBook(
          List.of(
              new RuleBook.AlertRule(
                  "Checkout error ratio high",
                  "errors > 0.05",
                  Duration.ofMinutes(2),
                  Duration.ofMinutes(1),
                  Map.of("severity", "page"),
                  Map.of(),
                  Optional.of("ddlo0d8rv3ocgd"))),
          Map.of(),
          Duration.ofSeconds(15),
          Duration.ofMinutes(1));

  @Test
  void aGrafanaRuleNamedByItsUidMatchesItsTitleAndRoutesAsItsTitle() throws Exception {
    AlertPlan.Result result =
        AlertPlan.of(
            List.of(expect("ddlo0d8rv3ocgd", "oncall-pager")), GRAFANA, Optional.of(routes()));

    assertThat(result.refusals()).isEmpty();
    assertThat(result.lines())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith(
            "ddlo0d8rv3ocgd: firing within 2m; matches Grafana rule \"Checkout error ratio high\""
                + " (uid ddlo0d8rv3ocgd); floor ")
        .endsWith("; routes to oncall-pager");
  }

  @Test
  void aGrafanaRuleNamedByItsTitleSaysItsUidAndAMisspelledTitleGetsTheNearest() {
    AlertPlan.Result byTitle =
        AlertPlan.of(List.of(expect("Checkout error ratio high", null)), GRAFANA, Optional.empty());
    assertThat(byTitle.lines().get(0))
        .contains("; matches Grafana rule \"Checkout error ratio high\" (uid ddlo0d8rv3ocgd)");

    AlertPlan.Result misspelled =
        AlertPlan.of(List.of(expect("Checkout eror ratio hihg", null)), GRAFANA, Optional.empty());
    assertThat(misspelled.refusals())
        .containsExactly(
            "hypothesis.alerts: Checkout eror ratio hihg is defined by no alerting rule of"
                + " Prometheus; did you mean \"Checkout error ratio high\"?");
  }

  @Test
  void aTitleWinsOverAnotherRulesUid() {
    RuleBook rules =
        new RuleBook(
            List.of(
                new RuleBook.AlertRule(
                    "A",
                    "x > 1",
                    Duration.ZERO,
                    Duration.ofMinutes(1),
                    Map.of(),
                    Map.of(),
                    Optional.of("B")),
                new RuleBook.AlertRule(
                    "B",
                    "y > 1",
                    Duration.ZERO,
                    Duration.ofMinutes(1),
                    Map.of(),
                    Map.of(),
                    Optional.of("c1"))),
            Map.of(),
            Duration.ofSeconds(15),
            Duration.ofMinutes(1));
    assertThat(rules.alert("B").orElseThrow().query()).isEqualTo("y > 1");
    assertThat(rules.alert("c1").orElseThrow().name()).isEqualTo("B");
    assertThat(rules.alert("c2")).isEmpty();
  }
}
