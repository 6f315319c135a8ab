package dev.firedrill.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Prometheus's alert states and Grafana's, with and without a {@code " (reason)"} suffix. */
class PromAlertTest {

  private static final Instant AT = Instant.parse("2024-05-14T09:12:00Z");
  private static final Duration FOR = Duration.ofMinutes(2);

  private static PromAlert alert(String state) {
    return new PromAlert(Map.of("alertname", "A"), Map.of(), state, Optional.of(AT));
  }

  @Test
  void grafanasNormalInstancesAreNotActiveWhateverTheReason() {
    assertThat(alert("Normal").active()).isFalse();
    assertThat(alert("Normal (MissingSeries)").active()).isFalse();
    assertThat(alert("Normal (Error)").active()).isFalse();
    assertThat(alert("inactive").active()).isFalse();
  }

  @Test
  void alertingFiresAndItsActiveAtIsAlreadyTheFiringTime() {
    assertThat(alert("Alerting").firing()).isTrue();
    assertThat(alert("Alerting (NoData)").firing()).isTrue();
    assertThat(alert("Alerting").firingSince(FOR)).contains(AT);
    assertThat(alert("Recovering").firing()).isTrue();
  }

  @Test
  void prometheusFiringStartsForAfterActiveAt() {
    assertThat(alert("firing").firingSince(FOR)).contains(AT.plus(FOR));
    assertThat(alert("pending").firingSince(FOR)).isEmpty();
    assertThat(alert("pending").active()).isTrue();
  }

  @Test
  void grafanasPendingIsActiveButNotFiring() {
    assertThat(alert("Pending").active()).isTrue();
    assertThat(alert("Pending").firing()).isFalse();
    assertThat(alert("NoData").active()).isFalse();
    assertThat(alert("Error").active()).isFalse();
  }
}
