package dev.firedrill.experiment;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * One alert the drill's fault should fire (or must not): where it should be routed, the links it
 * should carry, and how long after injection it may take. {@code matchers} are label equalities
 * that pick the alert's series when the rule yields several.
 */
public record AlertExpectation(
    String alert,
    Map<String, String> matchers,
    Expect expect,
    Duration within,
    Optional<String> receiver,
    Optional<String> runbookUrl,
    Optional<String> dashboard,
    boolean checkLinks) {

  private static final Pattern CLASSIC_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  public enum Expect {
    FIRING("firing"),
    SILENT("silent");

    private final String text;

    Expect(String text) {
      this.text = text;
    }

    public String text() {
      return text;
    }
  }

  public AlertExpectation {
    Objects.requireNonNull(alert, "alert");
    Objects.requireNonNull(within, "within");
    matchers = Map.copyOf(matchers == null ? Map.of() : matchers);
    expect = expect == null ? Expect.FIRING : expect;
    receiver = receiver == null ? Optional.empty() : receiver;
    runbookUrl = runbookUrl == null ? Optional.empty() : runbookUrl;
    dashboard = dashboard == null ? Optional.empty() : dashboard;
  }

  /**
   * This expectation about the alert {@code name}: a Grafana rule named by its UID in the file is
   * watched by its title, the {@code alertname} Grafana gives its instances and notifications.
   */
  public AlertExpectation named(String name) {
    return new AlertExpectation(
        name, matchers, expect, within, receiver, runbookUrl, dashboard, checkLinks);
  }

  /** Whether an alert with these labels is the one this expectation is about. */
  public boolean matches(Map<String, String> labels) {
    return alert.equals(labels.get("alertname"))
        && matchers.entrySet().stream()
            .allMatch(m -> m.getValue().equals(labels.getOrDefault(m.getKey(), "")));
  }

  /** {@code CheckoutErrorBudgetBurn{service="checkout"}}, as the table and messages name it. */
  public String describe() {
    return describe(alert, matchers);
  }

  /**
   * An alert and its matchers as PromQL writes a selector: a label name that is not a classic one
   * (Prometheus 3's UTF-8 names, such as {@code service.name}) quoted, values escaped. Classic
   * names print as before, so that history keeps matching older runs.
   */
  public static String describe(String alert, Map<String, String> matchers) {
    if (matchers.isEmpty()) {
      return alert;
    }
    StringBuilder text = new StringBuilder(alert).append('{');
    new TreeMap<>(matchers)
        .forEach(
            (k, v) ->
                text.append(text.charAt(text.length() - 1) == '{' ? "" : ",")
                    .append(CLASSIC_NAME.matcher(k).matches() ? k : quoted(k))
                    .append('=')
                    .append(quoted(v)));
    return text.append('}').toString();
  }

  private static String quoted(String text) {
    return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
  }
}
