package dev.firedrill.engine;

import dev.firedrill.experiment.BurnRateGuard;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.Sli;
import dev.firedrill.experiment.Targets;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.promql.parse.PromqlParser;
import java.util.ArrayList;
import java.util.List;

/**
 * Every PromQL query of an experiment file, parsed with firedrill's own parser: a syntax error is
 * the file's mistake, found before any Prometheus is asked (which would answer 400 in preflight).
 * The grammar is Prometheus 3's, which reads all that 2.x reads: most users' servers are 3.x, and a
 * 3.x-only construct sent to a 2.x server still fails there, as an inconclusive preflight.
 */
final class QuerySyntax {

  private QuerySyntax() {}

  /**
   * One line per query that does not parse, naming its field: {@code steady_state.slis[0].query
   * (name): ...}.
   */
  static List<String> problems(Experiment experiment) {
    List<String> problems = new ArrayList<>();
    List<Sli> slis = experiment.steadyState().slis();
    for (int i = 0; i < slis.size(); i++) {
      Sli sli = slis.get(i);
      String field = "steady_state.slis[" + i + "].";
      // {{ targets }} is checked as the pre-flight runs it; after injection only quoted names
      // change, inside the same string literal.
      check(
          field + "query (" + sli.name() + ")",
          Targets.BEFORE_INJECTION.resolve(sli.query()),
          problems);
      sli.control()
          .ifPresent(
              control ->
                  check(
                      field + "control (" + sli.name() + ")",
                      Targets.BEFORE_INJECTION.resolve(control.query()),
                      problems));
    }
    if (experiment.abort().burnRate().isPresent()) {
      BurnRateGuard guard = experiment.abort().burnRate().get();
      check("abort.burn_rate.error_ratio", guard.errorRatioQuery(), problems);
      guard
          .remainingBudget()
          .ifPresent(query -> check("abort.burn_rate.remaining_budget", query, problems));
    }
    return problems;
  }

  private static void check(String field, String query, List<String> problems) {
    try {
      PromqlParser.parse(query, PromqlParser.Syntax.PROMETHEUS_3);
    } catch (PromqlException e) {
      problems.add(field + ": not valid PromQL: " + e.getMessage());
    }
  }
}
