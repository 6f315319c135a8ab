package dev.firedrill.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A Grafana NoData or Error instance read through its rule's noDataState and execErrState. */
class GrafanaStatesTest {

  private static PromAlert read(String state, String noDataState, String execErrState) {
    return new PromAlert(
        Map.of("alertname", "A"),
        Map.of(),
        GrafanaStates.of(state, noDataState, execErrState),
        Optional.of(Instant.parse("2024-05-14T09:12:00Z")));
  }

  @Test
  void noDataFiresWhereTheRuleAlertsOnNoDataAndNotWhereItCallsItOk() {
    assertThat(GrafanaStates.of("NoData", "Alerting", "Error")).isEqualTo("Alerting (NoData)");
    assertThat(read("NoData", "Alerting", "Error").firing()).isTrue();
    assertThat(GrafanaStates.of("NoData", "OK", "Error")).isEqualTo("Normal (NoData)");
    assertThat(read("NoData", "OK", "Error").active()).isFalse();
  }

  @Test
  void noDataKeptAsItsOwnStateIsNeitherPendingNorFiring() {
    assertThat(GrafanaStates.of("NoData", "NoData", "Error")).isEqualTo("NoData");
    PromAlert own = read("NoData", "NoData", "Error");
    assertThat(own.active()).isFalse();
    assertThat(own.firing()).isFalse();
    assertThat(own.grafana()).isTrue();
  }

  @Test
  void errorFollowsExecErrStateNotNoDataState() {
    assertThat(read("Error", "OK", "Alerting").firing()).isTrue();
    assertThat(GrafanaStates.of("Error", "Alerting", "OK")).isEqualTo("Normal (Error)");
    assertThat(read("Error", "Alerting", "OK").active()).isFalse();
    assertThat(GrafanaStates.of("Error", "Alerting", "Error")).isEqualTo("Error");
  }

  @Test
  void keepLastAndEveryOtherStateAreLeftAsGrafanaWroteThem() {
    assertThat(GrafanaStates.of("NoData", "KeepLast", "Error")).isEqualTo("NoData");
    assertThat(GrafanaStates.of("Error", "NoData", "KeepLast")).isEqualTo("Error");
    assertThat(GrafanaStates.of("Alerting (NoData)", "OK", "OK")).isEqualTo("Alerting (NoData)");
    assertThat(GrafanaStates.of("Pending", "Alerting", "Alerting")).isEqualTo("Pending");
    assertThat(GrafanaStates.of("Normal", "Alerting", "Alerting")).isEqualTo("Normal");
    assertThat(GrafanaStates.of("firing", "OK", "OK")).isEqualTo("firing");
  }
}
