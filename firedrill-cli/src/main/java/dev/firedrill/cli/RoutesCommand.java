package dev.firedrill.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.alerting.routes.MatchType;
import dev.firedrill.alerting.routes.Matcher;
import dev.firedrill.alerting.routes.MatcherSyntax;
import dev.firedrill.alerting.routes.Route;
import dev.firedrill.alerting.routes.RouteConfigException;
import dev.firedrill.alerting.routes.RouteDialect;
import dev.firedrill.alerting.routes.RouteOptions;
import dev.firedrill.alerting.routes.RouteTree;
import dev.firedrill.time.Durations;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "routes",
    description =
        "Print the receivers an alert with these labels is routed to by an "
            + "alertmanager.yml, comma-separated on one line, as 'amtool config routes test' prints them. Reads the file only.")
final class RoutesCommand implements Callable<Integer> {

  @Parameters(
      index = "0",
      paramLabel = "ALERTMANAGER_YML",
      description = "The Alertmanager configuration file.")
  Path file;

  @Parameters(
      index = "1..*",
      paramLabel = "LABEL=VALUE",
      arity = "0..*",
      description =
          "The alert's labels, such as team=payments or severity=\"page\" (a label not given is empty).")
  List<String> labels = new ArrayList<>();

  @Option(
      names = "--tree",
      description =
          "Print the matching routes as a tree first, as 'amtool config routes test "
              + "--tree' does.")
  boolean tree;

  @Option(
      names = "--show",
      description = "Print the whole route tree first, as 'amtool config routes show' does.")
  boolean show;

  @Option(
      names = "--details",
      description =
          "After the receivers, one line per matched route: its place in the file, "
              + "receiver, grouping and timings.")
  boolean details;

  @Option(
      names = "--matchers",
      paramLabel = "GRAMMAR",
      description =
          "How matchers and label names are read, as "
              + "Alertmanager 0.27+'s feature flags choose: fallback (the default: the UTF-8 grammar, the classic one where it "
              + "reads the input too, with a warning when they differ), utf8 (utf8-strict-mode) or classic (classic-mode, "
              + "and Alertmanager 0.26 and earlier).")
  String matchers = MatcherSyntax.FALLBACK.word();

  @Mixin OutputOption output;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    MatcherSyntax syntax =
        MatcherSyntax.of(matchers)
            .orElseThrow(
                () ->
                    new UserError(
                        "firedrill routes: --matchers "
                            + matchers
                            + ": expected classic, utf8 or fallback",
                        ExitCode.INVALID));
    Map<String, String> labelSet = labels(labels, syntax);
    RouteTree routes;
    try {
      routes = RouteTree.load(file, RouteDialect.CURRENT.withMatchers(syntax));
    } catch (RouteConfigException e) {
      throw new UserError(e.getMessage(), ExitCode.INVALID, e);
    }
    PrintWriter err = spec.commandLine().getErr();
    routes.warnings().forEach(warning -> err.println("warning: " + warning));
    err.flush();
    PrintWriter out = spec.commandLine().getOut();
    if (output.json()) {
      ObjectNode doc = OutputOption.document("routes");
      doc.put("file", file.toString());
      ObjectNode labelNode = doc.putObject("labels");
      labelSet.forEach(labelNode::put);
      ArrayNode receivers = doc.putArray("receivers");
      ArrayNode matched = doc.putArray("routes");
      for (Route route : routes.match(labelSet)) {
        receivers.add(route.receiver());
        RouteOptions options = route.options();
        ObjectNode row = matched.addObject();
        row.put("path", route.path());
        row.put("matchers", route.matchers().isEmpty() ? "" : route.matchersText());
        row.put("receiver", options.receiver());
        ArrayNode groupBy = row.putArray("group_by");
        if (options.groupByAll()) {
          groupBy.add("...");
        } else {
          options.groupBy().forEach(groupBy::add);
        }
        row.put("group_wait_seconds", options.groupWait().toMillis() / 1000.0);
        row.put("group_interval_seconds", options.groupInterval().toMillis() / 1000.0);
        row.put("repeat_interval_seconds", options.repeatInterval().toMillis() / 1000.0);
        row.put("continue", route.continueMatching());
      }
      ArrayNode warnings = doc.putArray("warnings");
      routes.warnings().forEach(warning -> warnings.add(warning.toString()));
      OutputOption.print(out, doc);
      return ExitCode.HELD;
    }
    if (show) {
      out.println("Routing tree:");
      out.println(routes.render());
    }
    if (tree) {
      out.println("Matching routes:");
      out.println(routes.renderMatching(labelSet));
      out.println();
    }
    List<Route> matched = routes.match(labelSet);
    out.println(String.join(",", matched.stream().map(Route::receiver).toList()));
    if (details) {
      for (Route route : matched) {
        out.println(detail(route));
      }
    }
    out.flush();
    return ExitCode.HELD;
  }

  /** As amtool reads them: each one a matcher that must be {@code name=value}; a later one wins. */
  static Map<String, String> labels(List<String> arguments, MatcherSyntax syntax) {
    Map<String, String> labels = new LinkedHashMap<>();
    for (String argument : arguments) {
      Matcher matcher;
      try {
        matcher = syntax.parseOne(argument).matchers().get(0);
      } catch (IllegalArgumentException e) {
        throw new UserError(
            "firedrill routes: label "
                + argument
                + ": "
                + e.getMessage()
                + " (expected name=value, such as team=payments)",
            ExitCode.INVALID);
      }
      if (matcher.type() != MatchType.EQUAL) {
        throw new UserError(
            "firedrill routes: label " + argument + ": expected name=value, such as team=payments",
            ExitCode.INVALID);
      }
      labels.put(matcher.name(), matcher.value());
    }
    return labels;
  }

  private static String detail(Route route) {
    RouteOptions options = route.options();
    String grouping = options.groupByAll() ? "..." : String.join(",", options.groupBy());
    return route.path()
        + "  "
        + (route.matchers().isEmpty() ? "default-route" : route.matchersText())
        + "  receiver: "
        + options.receiver()
        + "  group_by: ["
        + grouping
        + "]"
        + "  group_wait: "
        + Durations.format(options.groupWait())
        + "  group_interval: "
        + Durations.format(options.groupInterval())
        + "  repeat_interval: "
        + Durations.format(options.repeatInterval())
        + (route.continueMatching() ? "  continue: true" : "")
        + (options.muteTimeIntervals().isEmpty()
            ? ""
            : "  mute_time_intervals: " + options.muteTimeIntervals())
        + (options.activeTimeIntervals().isEmpty()
            ? ""
            : "  active_time_intervals: " + options.activeTimeIntervals());
  }
}
