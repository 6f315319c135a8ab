package dev.firedrill.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * hypothesis: what the drill is expected to show, and the alerts expected to fire or stay silent.
 */
final class HypothesisSection {

  /** Any text that is valid UTF-8: no unpaired surrogate, no NUL. */
  private static final Pattern UTF8_NAME =
      Pattern.compile("(?:[^\\x00\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])+");

  private static final List<String> EXPECT = List.of("firing", "silent");

  private final Node.Context context;

  HypothesisSection(Node.Context context) {
    this.context = context;
  }

  /**
   * {@code routable}: the file says where routing can be read (Alertmanager or firedrill's
   * receiver).
   */
  Hypothesis hypothesis(Node section, boolean routable) {
    if (section == null) {
      return new Hypothesis(null, null);
    }
    String description = section.get("description").text();
    Duration recovery = section.get("recovery").duration(false);
    List<AlertExpectation> alerts = new ArrayList<>();
    List<Node> items = section.get("alerts").list();
    for (Node item : items == null ? List.<Node>of() : items) {
      AlertExpectation expectation = alertExpectation(item.object(), routable);
      if (expectation != null) {
        alerts.add(expectation);
      }
    }
    section.rejectUnknownKeys(null);
    return new Hypothesis(description, recovery, alerts);
  }

  private AlertExpectation alertExpectation(Node item, boolean routable) {
    if (item == null) {
      return null;
    }
    // Prometheus 3 takes any UTF-8 alert and label name; only an empty one (or broken text) is
    // refused.
    String alert =
        item.get("alert")
            .required("expected the name of an alerting rule, such as CheckoutErrorBudgetBurn")
            .text(
                UTF8_NAME,
                "expected an alert name of valid UTF-8 text, such as CheckoutErrorBudgetBurn");
    Map<String, String> matchers = new LinkedHashMap<>();
    Map<String, Node> members = item.get("matchers").members();
    for (Map.Entry<String, Node> member :
        members == null ? Map.<String, Node>of().entrySet() : members.entrySet()) {
      if (member.getKey().isEmpty() || !UTF8_NAME.matcher(member.getKey()).matches()) {
        member
            .getValue()
            .problem("expected a non-empty label name of valid UTF-8 text, such as service");
      }
      String value = member.getValue().json.isValueNode() ? member.getValue().json.asText() : null;
      if (value == null) {
        member.getValue().problem("expected a label value such as checkout");
      } else {
        matchers.put(member.getKey(), value);
      }
    }
    String expect =
        item.get("expect").choice("expectation", EXPECT, text -> text.toLowerCase(Locale.ROOT));
    Duration within =
        item.get("within")
            .required("expected how long after injection the alert may take, such as 2m")
            .duration(true);
    Node receiverNode = item.get("receiver");
    String receiver = receiverNode.text();
    if (receiver != null && !routable) {
      receiverNode.problem(
          "expected alertmanager.url or receiver.listen: routing is read from Alertmanager's "
              + "/api/v2/alerts or from the webhooks firedrill receives");
    }
    String runbook = item.get("runbook_url").text();
    String dashboard = item.get("dashboard").text();
    Boolean checkLinks = item.get("check_links").bool();
    item.rejectUnknownKeys(null);
    if (!context.clean()) {
      return null;
    }
    return new AlertExpectation(
        alert,
        matchers,
        expect == null ? null : AlertExpectation.Expect.valueOf(expect.toUpperCase(Locale.ROOT)),
        within,
        Optional.ofNullable(receiver),
        Optional.ofNullable(runbook),
        Optional.ofNullable(dashboard),
        Boolean.TRUE.equals(checkLinks));
  }
}
