package dev.firedrill.experiment;

import static dev.firedrill.testing.MinimalExperiment.load;
import static dev.firedrill.testing.MinimalExperiment.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The observability half of an experiment: expected alerts, Alertmanager and the webhook receiver.
 */
class AlertExpectationLoaderTest {

  private static final String ALERTS =
      """
      alertmanager:
        url: http://127.0.0.1:19093
      receiver:
        listen: 127.0.0.1:19101
        bearer_token_env: RECEIVER_TOKEN
      hypothesis:
        recovery: 30s
        alerts:
          - alert: CheckoutErrorBudgetBurn
            matchers: {service: checkout}
            within: 2m
            receiver: team-checkout
            runbook_url: https://runbooks.example.com/checkout/error-budget-burn
            dashboard: https://grafana.example.com/d/lab
            check_links: true
          - alert: PaymentsDown
            expect: silent
            within: 1m
      """;

  @Test
  void readsEveryFieldWithItsDefaults() {
    Experiment experiment = load(with(ALERTS));

    assertThat(experiment.alertmanager())
        .contains(new AlertmanagerSource(URI.create("http://127.0.0.1:19093"), null));
    assertThat(experiment.alertmanager().get().timeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(experiment.receiver())
        .contains(
            new ReceiverSpec(
                "127.0.0.1:19101",
                new TokenSource.FromEnv("RECEIVER_TOKEN"),
                ReceiverSpec.DEFAULT_MAX_PAYLOAD));
    assertThat(experiment.hypothesis().alerts())
        .containsExactly(
            new AlertExpectation(
                "CheckoutErrorBudgetBurn",
                Map.of("service", "checkout"),
                AlertExpectation.Expect.FIRING,
                Duration.ofMinutes(2),
                Optional.of("team-checkout"),
                Optional.of("https://runbooks.example.com/checkout/error-budget-burn"),
                Optional.of("https://grafana.example.com/d/lab"),
                true),
            new AlertExpectation(
                "PaymentsDown",
                Map.of(),
                AlertExpectation.Expect.SILENT,
                Duration.ofMinutes(1),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                false));
    assertThat(experiment.hypothesis().alerts().get(0).describe())
        .isEqualTo("CheckoutErrorBudgetBurn{service=\"checkout\"}");
  }

  @Test
  void reportsEveryProblemOfAnExpectationAtOnce() {
    String bad =
        with(
            """
        hypothesis:
          alerts:
            - alert: Checkout Burn
              expect: loud
              reciever: team-checkout
              check_links: yes please
            - alert: PaymentsDown
              within: 1m
              receiver: team-payments
        """);
    assertThatThrownBy(() -> ExperimentLoader.load("exp.yaml", bad))
        .isInstanceOf(ExperimentException.class)
        .hasMessage(
            String.join(
                "\n",
                "exp.yaml: /hypothesis/alerts/0/within: missing; expected how long after injection the alert may take, such as 2m (line 28, column 7)",
                "exp.yaml: /hypothesis/alerts/0/expect: unknown expectation \"loud\"; expected one of: firing, silent (line 29, column 7)",
                "exp.yaml: /hypothesis/alerts/0/reciever: unknown key; did you mean \"receiver\"? (line 30, column 7)",
                "exp.yaml: /hypothesis/alerts/0/check_links: expected true or false, got \"yes please\" (line 31, column 7)",
                "exp.yaml: /hypothesis/alerts/1/receiver: expected alertmanager.url or receiver.listen: routing is read from "
                    + "Alertmanager's /api/v2/alerts or from the webhooks firedrill receives (line 34, column 7)"));
  }

  @Test
  void aReceiverTokenIsNamedNeverWritten() {
    String bad =
        with(
            """
        receiver:
          listen: 0.0.0.0:19101
          bearer_token: s3cret-value
        """);
    assertThatThrownBy(() -> ExperimentLoader.load("exp.yaml", bad))
        .hasMessageContaining(
            "/receiver/bearer_token: secrets are refused in an experiment file; use bearer_token_env or bearer_token_file")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("s3cret-value"));
  }
}
