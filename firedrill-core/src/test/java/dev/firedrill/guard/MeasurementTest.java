package dev.firedrill.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MeasurementTest {

  private static final Reading OK = Reading.of("error_ratio", 0.001, true, "<= 0.005");
  private static final Reading BREACH = Reading.of("p95", 0.9, false, "<= 0.3");
  private static final Reading NO_DATA = Reading.noData("availability", ">= 0.99", "empty");
  private static final Reading ERROR = Reading.error("saturation", "<= 0.8", "timeout");

  private static Measurement of(Reading... slis) {
    return new Measurement(Instant.EPOCH, List.of(slis), Optional.empty());
  }

  @Test
  void theStatusIsTheWorstReadingOkThenNoDataThenErrorThenBreach() {
    assertThat(of().status()).isEqualTo(Reading.Status.OK);
    assertThat(of(OK).status()).isEqualTo(Reading.Status.OK);
    assertThat(of(OK, NO_DATA).status()).isEqualTo(Reading.Status.NO_DATA);
    assertThat(of(ERROR, NO_DATA, OK).status()).isEqualTo(Reading.Status.ERROR);
    assertThat(of(OK, BREACH, ERROR, NO_DATA).status()).isEqualTo(Reading.Status.BREACH);
  }

  @Test
  void theBurnRateCountsLikeAnSli() {
    Measurement burning = new Measurement(Instant.EPOCH, List.of(OK), Optional.of(BREACH));
    assertThat(burning.status()).isEqualTo(Reading.Status.BREACH);
    assertThat(burning.withinSteadyState()).isFalse();
    assertThat(burning.text()).isEqualTo("error_ratio 0.001 <= 0.005, p95 0.9 outside <= 0.3");
  }

  @Test
  void onlyEveryReadingOkIsInsideTheSteadyState() {
    assertThat(of(OK).withinSteadyState()).isTrue();
    assertThat(of(OK, NO_DATA).withinSteadyState()).isFalse();
    assertThat(of(ERROR).withinSteadyState()).isFalse();
  }

  @Test
  void aProbeErrorIsAnErrorReadingNotMissingData() {
    assertThat(of(OK, ERROR).hasProbeError()).isTrue();
    assertThat(of(OK, NO_DATA, BREACH).hasProbeError()).isFalse();
  }

  @Test
  void readingsAreFoundByName() {
    assertThat(of(OK, BREACH).sli("p95")).contains(BREACH);
    assertThat(of(OK).sli("p95")).isEmpty();
  }
}
