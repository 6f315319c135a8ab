package dev.firedrill.alerting;

import dev.firedrill.prometheus.GrafanaRuleDetails;
import java.util.Locale;

/**
 * A Grafana instance's {@code NoData} or {@code Error} state read through its rule's {@code
 * noDataState} or {@code execErrState}, so that {@link PromAlert} counts it as Grafana acts on it:
 * a rule that alerts on no data ({@code Alerting}) fires, one that treats no data as {@code OK}
 * does not, and one that keeps {@code NoData} (or {@code Error}) as its own state is neither
 * pending nor firing. Grafana writes the instance as {@code Alerting (NoData)} where it already
 * applied the rule; a bare {@code NoData} is what this reads per rule. {@code KeepLast} keeps the
 * instance's last state, which the listing does not give, so the state is left as it is.
 */
final class GrafanaStates {

  private GrafanaStates() {}

  /** {@code state} as firedrill should read it, given the rule's two settings. */
  static String of(String state, String noDataState, String execErrState) {
    String base = state.trim().toLowerCase(Locale.ROOT);
    if (base.equals("nodata")) {
      return apply(noDataState, "NoData", state);
    }
    if (base.equals("error")) {
      return apply(execErrState, "Error", state);
    }
    return state;
  }

  /** {@link #of(String, String, String)} with the rule's details. */
  static String of(String state, GrafanaRuleDetails rule) {
    return of(state, rule.noDataState(), rule.execErrState());
  }

  private static String apply(String setting, String reason, String state) {
    return switch (setting) {
      case "Alerting" -> "Alerting (" + reason + ")";
      case "OK" -> "Normal (" + reason + ")";
      default -> state;
    };
  }
}
