package dev.firedrill.alerting;

import dev.firedrill.alerting.routes.Route;
import dev.firedrill.alerting.routes.RouteTree;
import dev.firedrill.experiment.AlertExpectation;
import dev.firedrill.yaml.NearestName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What {@code firedrill plan} says of the expected alerts before anything runs: each must have a
 * rule (an input error otherwise, with the nearest rule's name), its floor, and, with
 * Alertmanager's route tree, the receivers its labels lead to beside the expected one. An expected
 * receiver that no route names can never be reached: that is an input error too, not a warning that
 * would end in a drill reported misrouted.
 */
public final class AlertPlan {

  /** Lines to print, and refusals that make the plan fail. */
  public record Result(List<String> lines, List<String> refusals) {
    public Result {
      lines = List.copyOf(lines);
      refusals = List.copyOf(refusals);
    }
  }

  private AlertPlan() {}

  public static Result of(
      List<AlertExpectation> expectations, RuleBook rules, Optional<RouteTree> routes) {
    List<String> lines = new ArrayList<>();
    List<String> refusals = new ArrayList<>();
    for (AlertExpectation expectation : expectations) {
      Optional<RuleBook.AlertRule> rule = rules.alert(expectation.alert());
      if (rule.isEmpty() && rules.noRulesCause().isPresent()) {
        refusals.add(
            "hypothesis.alerts: "
                + expectation.alert()
                + " cannot be checked: "
                + rules.noRulesCause().get());
        continue;
      }
      if (rule.isEmpty()) {
        List<String> names = rules.alerting().stream().map(RuleBook.AlertRule::name).toList();
        refusals.add(
            "hypothesis.alerts: "
                + expectation.alert()
                + " is defined by no alerting rule of Prometheus; "
                + (names.isEmpty()
                    ? "Prometheus has no alerting rule"
                    : NearestName.suggest(expectation.alert(), names, "its alerting rules are ")));
        continue;
      }
      if (routes.isPresent() && expectation.receiver().isPresent()) {
        Set<String> named = receiversNamed(routes.get().root(), new LinkedHashSet<>());
        String expected = expectation.receiver().get();
        if (!named.contains(expected)) {
          refusals.add(
              "hypothesis.alerts: "
                  + expectation.alert()
                  + " expects receiver \""
                  + expected
                  + "\", which no route of "
                  + routes.get().file()
                  + " names; "
                  + NearestName.suggest(expected, named, "its routes name "));
          continue;
        }
      }
      StringBuilder line =
          new StringBuilder(expectation.describe())
              .append(": ")
              .append(expectation.expect().text())
              .append(" within ")
              .append(dev.firedrill.time.Durations.format(expectation.within()));
      rule.get().grafanaName().ifPresent(name -> line.append("; matches ").append(name));
      line.append("; floor ").append(Floors.of(rule.get(), rules).text());
      if (routes.isPresent()) {
        Map<String, String> labels = new LinkedHashMap<>(rule.get().labels());
        labels.putAll(expectation.matchers());
        labels.put("alertname", rule.get().name());
        List<String> receivers = routes.get().receivers(labels);
        line.append("; routes to ").append(String.join(", ", receivers));
        expectation
            .receiver()
            .filter(expected -> !receivers.contains(expected))
            .ifPresent(
                expected ->
                    line.append(", not the expected ")
                        .append(expected)
                        .append(": the drill will report it misrouted"));
      }
      lines.add(line.toString());
    }
    return new Result(lines, refusals);
  }

  private static Set<String> receiversNamed(Route route, Set<String> into) {
    if (route.receiver() != null) {
      into.add(route.receiver());
    }
    route.routes().forEach(child -> receiversNamed(child, into));
    return into;
  }
}
