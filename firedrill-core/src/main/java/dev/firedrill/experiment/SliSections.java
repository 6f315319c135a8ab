package dev.firedrill.experiment;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * steady_state and abort, read in that order: the abort rules name the SLIs of the steady state.
 */
final class SliSections {

  private static final Pattern SLI_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
  private static final List<String> MISSING = List.of("fail", "inconclusive");

  private final Node.Context context;

  /** The SLI names of the steady state, for the abort rules. */
  private final Set<String> sliNames = new LinkedHashSet<>();

  SliSections(Node.Context context) {
    this.context = context;
  }

  SteadyState steadyState(Node section) {
    if (section == null) {
      return null;
    }
    Duration interval = section.get("interval").duration(true);
    Node slisNode = section.get("slis");
    List<Node> items = slisNode.list();
    if (items != null && items.isEmpty()) {
      slisNode.problem("missing; a steady state is measured, not assumed: list at least one SLI");
    }
    List<Sli> slis = new ArrayList<>();
    for (Node item : items == null ? List.<Node>of() : items) {
      Sli sli = sli(item.object());
      if (sli != null) {
        slis.add(sli);
      }
    }
    section.rejectUnknownKeys(null);
    return context.clean() ? new SteadyState(interval, slis) : null;
  }

  private Sli sli(Node item) {
    if (item == null) {
      return null;
    }
    Node nameNode = item.get("name").required("expected a name such as error_ratio");
    String name =
        nameNode.text(
            SLI_NAME,
            "expected a name of letters, digits and '_' that does not start with a digit, such as error_ratio");
    String written =
        nameNode.present() && nameNode.json.isTextual() ? nameNode.json.asText() : null;
    if (written != null && !sliNames.add(written)) {
      nameNode.problem("duplicate SLI name " + Node.quote(written) + "; SLI names must be unique");
    }
    Node queryNode = item.get("query").required("expected a PromQL query");
    String query = placeholder(queryNode, queryNode.text());
    Node maxNode = item.get("max");
    Node minNode = item.get("min");
    Double max = maxNode.number();
    Double min = minNode.number();
    Node controlNode = item.get("control");
    Control control = control(item, controlNode);
    if (!maxNode.present() && !minNode.present() && !controlNode.present()) {
      item.problemAt("max", "missing; an SLI needs max, min or both, or a control query");
    }
    ordered(minNode, min, maxNode, max, "min", "max");
    Missing missing = missing(item.get("missing"));
    item.rejectUnknownKeys(null);
    return context.clean()
        ? new Sli(name, query, optional(min), optional(max), missing, Optional.ofNullable(control))
        : null;
  }

  /**
   * The control group's query and the bounds on experiment minus control ({@code max_delta}, {@code
   * min_delta}) and experiment over control ({@code max_ratio}, {@code min_ratio}).
   */
  private Control control(Node item, Node controlNode) {
    Node maxDelta = item.get("max_delta");
    Node minDelta = item.get("min_delta");
    Node maxRatio = item.get("max_ratio");
    Node minRatio = item.get("min_ratio");
    Double maxDeltaValue = maxDelta.number();
    Double minDeltaValue = minDelta.number();
    Double maxRatioValue = maxRatio.number();
    Double minRatioValue = minRatio.number();
    List<Node> bounds = List.of(maxDelta, minDelta, maxRatio, minRatio);
    if (!controlNode.present()) {
      bounds.stream()
          .filter(Node::present)
          .forEach(
              bound ->
                  bound.problem(
                      "expected a control query beside query: the bound compares the SLI with its"
                          + " control group, such as control: ... pod!~\"{{ targets }}\""));
      return null;
    }
    String query = placeholder(controlNode, controlNode.text());
    if (bounds.stream().noneMatch(Node::present)) {
      item.problemAt(
          "max_delta",
          "missing; a control query needs max_delta, min_delta, max_ratio or min_ratio: the most"
              + " the experiment group may differ from the control group");
    }
    ordered(minDelta, minDeltaValue, maxDelta, maxDeltaValue, "min_delta", "max_delta");
    ordered(minRatio, minRatioValue, maxRatio, maxRatioValue, "min_ratio", "max_ratio");
    if (!context.clean() || query == null) {
      return null;
    }
    return new Control(
        query,
        optional(minDeltaValue),
        optional(maxDeltaValue),
        optional(minRatioValue),
        optional(maxRatioValue));
  }

  /** The query itself, after a problem for a {@code {{ targets }}} that cannot be quoted safely. */
  private static String placeholder(Node node, String query) {
    if (query != null) {
      Targets.misuse(query).ifPresent(node::problem);
    }
    return query;
  }

  private static void ordered(
      Node minNode, Double min, Node maxNode, Double max, String minKey, String maxKey) {
    if (min != null && max != null && min > max) {
      minNode.problem(
          "expected "
              + minKey
              + " <= "
              + maxKey
              + ", got "
              + minKey
              + " "
              + minNode.raw()
              + " above "
              + maxKey
              + " "
              + maxNode.raw());
    }
  }

  private static Missing missing(Node node) {
    String value = node.choice("value", MISSING, text -> text.toLowerCase(Locale.ROOT));
    return value == null ? null : Missing.valueOf(value.toUpperCase(Locale.ROOT));
  }

  Abort abort(Node section) {
    if (section == null) {
      return null;
    }
    List<AbortRule> rules = new ArrayList<>();
    List<Node> items = section.get("rules").list();
    for (Node item : items == null ? List.<Node>of() : items) {
      AbortRule rule = rule(item.object());
      if (rule != null) {
        rules.add(rule);
      }
    }
    BurnRateGuard burnRate = burnRate(section.section("burn_rate", null));
    Integer probeErrors = section.get("probe_errors").integer(1);
    Path abortFile = section.get("abort_file").path();
    section.rejectUnknownKeys(null);
    return context.clean()
        ? new Abort(
            rules,
            Optional.ofNullable(burnRate),
            probeErrors == null ? Abort.DEFAULT_PROBE_ERRORS : probeErrors,
            Optional.ofNullable(abortFile))
        : null;
  }

  private AbortRule rule(Node item) {
    if (item == null) {
      return null;
    }
    Node sliNode = item.get("sli").required("an abort rule needs the name of the SLI it watches");
    String sli = sliNode.text();
    if (sli != null && !sliNames.isEmpty() && !sliNames.contains(sli)) {
      sliNode.problem(
          "no SLI named "
              + Node.quote(sli)
              + " in steady_state; "
              + Node.suggest(sli, sliNames, "the SLIs are: "));
    }
    Node above = item.get("above");
    Node below = item.get("below");
    Double aboveValue = above.number();
    Double belowValue = below.number();
    if (above.present() && below.present()) {
      below.problem("expected above or below, not both");
    } else if (!above.present() && !below.present()) {
      item.problemAt(
          "above",
          "missing; an abort rule needs above or below: the threshold that stops the drill");
    }
    Integer consecutive = item.get("for").integer(1);
    item.rejectUnknownKeys(null);
    if (!context.clean()) {
      return null;
    }
    return new AbortRule(
        sli,
        aboveValue != null ? AbortRule.Direction.ABOVE : AbortRule.Direction.BELOW,
        aboveValue != null ? aboveValue : belowValue,
        consecutive == null ? 1 : consecutive);
  }

  private BurnRateGuard burnRate(Node section) {
    if (section == null) {
      return null;
    }
    Node objectiveNode =
        section.get("objective").required("expected the SLO objective, such as 0.999 or \"99.9%\"");
    Double objective = objectiveNode.fraction();
    if (objective != null && !(objective > 0 && objective < 1)) {
      objective =
          objectiveNode.fail(
              "expected an objective strictly between 0 and 1, such as 0.999 or \"99.9%\"");
    }
    Duration window = section.get("window").duration(true);
    String errorRatio =
        section.get("error_ratio").required("expected a PromQL query for the error ratio").text();
    Node maxNode =
        section.get("max").required("expected the highest burn rate allowed, such as 14.4");
    Double max = maxNode.number();
    if (max != null && max <= 0) {
      max = maxNode.fail("expected a burn rate greater than 0, such as 14.4");
    }
    Missing missing = missing(section.get("missing"));
    String remaining = section.get("remaining_budget").text();
    section.rejectUnknownKeys(null);
    return context.clean()
        ? new BurnRateGuard(
            objective, window, errorRatio, max, missing, Optional.ofNullable(remaining))
        : null;
  }

  private static OptionalDouble optional(Double value) {
    return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
  }
}
