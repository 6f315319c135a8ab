package dev.firedrill.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AlertKeysTest {

  @Test
  void orderSpacesAndQuotesDoNotMakeAnotherAlert() {
    String canonical = "CheckoutErrorBudgetBurn{service=\"checkout\",zone=\"eu\"}";
    assertThat(AlertKeys.canonical("CheckoutErrorBudgetBurn{zone=\"eu\",service=\"checkout\"}"))
        .isEqualTo(canonical);
    assertThat(AlertKeys.canonical(" CheckoutErrorBudgetBurn { service = 'checkout', zone=eu } "))
        .isEqualTo(canonical);
    assertThat(AlertKeys.canonical("CheckoutErrorBudgetBurn")).isEqualTo("CheckoutErrorBudgetBurn");
  }

  @Test
  void aUtf8LabelNameKeepsTheQuotingTheExperimentKeyUses() {
    assertThat(AlertKeys.canonical("Slow{\"service.name\"=\"checkout\"}"))
        .isEqualTo("Slow{\"service.name\"=\"checkout\"}");
  }

  @Test
  void textThatIsNotAnExpectationsKeyIsLeftAsItIs() {
    assertThat(AlertKeys.canonical("Slow{service=~\"check.*\"}"))
        .isEqualTo("Slow{service=~\"check.*\"}");
    assertThat(AlertKeys.canonical("Slow{service=\"a\",service=\"b\"}"))
        .isEqualTo("Slow{service=\"a\",service=\"b\"}");
    assertThat(AlertKeys.canonical("Slow{service=")).isEqualTo("Slow{service=");
  }
}
