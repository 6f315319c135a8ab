package dev.firedrill.report;

import dev.firedrill.report.DrillRecord.Alert;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The drill as JUnit XML, so a CI system shows it as tests: one case for the system hypothesis and
 * one per expected alert, in {@code <testsuite name="firedrill.ID">}.
 */
public final class JunitReport {

  /** JUnit's timestamp carries no zone; it is UTC here. */
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);

  private record Case(
      String classname, String name, double time, String outcome, String type, String message) {}

  private JunitReport() {}

  public static String render(DrillRecord r) {
    String suite = "firedrill." + (r.simulated() ? "simulated." : "") + r.experiment().id();
    List<Case> cases = new ArrayList<>();
    cases.add(hypothesis(r, suite));
    for (Alert a : r.detection().map(DrillRecord.Detection::alerts).orElse(List.of())) {
      String name =
          a.describe()
              + (a.expectsFiring() ? " fires within " : " stays silent for ")
              + dev.firedrill.experiment.Numbers.format(a.withinS())
              + "s";
      double time = a.timeToDetectS().orElse(0);
      cases.add(
          a.held()
              ? new Case(suite + ".alerts", name, time, "pass", "", "")
              // Not measured is an error of the run, not a failure of the alert.
              : a.unknown()
                  ? new Case(suite + ".alerts", name, time, "error", "unknown", a.reason())
                  : new Case(
                      suite + ".alerts",
                      name,
                      time,
                      "failure",
                      a.failureKind().orElse("failed"),
                      a.reason()));
    }
    long failures = cases.stream().filter(c -> c.outcome().equals("failure")).count();
    long errors = cases.stream().filter(c -> c.outcome().equals("error")).count();
    long skipped = cases.stream().filter(c -> c.outcome().equals("skipped")).count();
    double total = r.finishedAt().map(r::seconds).orElse(0.0);
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.append("<testsuite name=\"")
        .append(Escape.xml(suite))
        .append("\" tests=\"")
        .append(cases.size())
        .append("\" failures=\"")
        .append(failures)
        .append("\" errors=\"")
        .append(errors)
        .append("\" skipped=\"")
        .append(skipped)
        .append("\" time=\"")
        .append(time(total))
        .append("\" timestamp=\"")
        .append(TIMESTAMP.format(r.startedAt()))
        .append("\">\n");
    xml.append("  <properties>\n");
    property(xml, "title", r.experiment().title());
    if (r.simulated()) {
      property(xml, "simulated", DrillRecord.SIMULATED);
    }
    property(xml, "verdict", r.verdict());
    property(xml, "reason", r.reason());
    r.detection().ifPresent(d -> property(xml, "observability", d.verdict()));
    property(xml, "rollback_ok", Boolean.toString(r.rollbackOk()));
    xml.append("  </properties>\n");
    for (Case c : cases) {
      xml.append("  <testcase classname=\"")
          .append(Escape.xml(c.classname()))
          .append("\" name=\"")
          .append(Escape.xml(c.name()))
          .append("\" time=\"")
          .append(time(c.time()))
          .append('"');
      if (c.outcome().equals("pass")) {
        xml.append("/>\n");
        continue;
      }
      xml.append(">\n    <")
          .append(c.outcome())
          .append(" message=\"")
          .append(Escape.xml(c.message()))
          .append('"');
      if (!c.outcome().equals("skipped")) {
        xml.append(" type=\"").append(Escape.xml(c.type())).append('"');
      }
      xml.append("/>\n  </testcase>\n");
    }
    xml.append("</testsuite>\n");
    return xml.toString();
  }

  /**
   * Held passes; deviated and aborted fail; not-run (the system was outside its steady state) is
   * skipped; inconclusive and refused proved nothing because of the drill itself (its queries, its
   * Prometheus, its file) and are errors, which CI does not count as passes; so are a fault that
   * could not be injected, an unfinished drill and a failed rollback, the last whatever the
   * verdict.
   */
  private static Case hypothesis(DrillRecord r, String suite) {
    String name = "steady state: " + r.experiment().hypothesis();
    double time =
        r.injectedAt()
            .flatMap(
                in ->
                    r.rollbackDoneAt().or(r::rollbackAt).map(out -> r.seconds(out) - r.seconds(in)))
            .orElse(0.0);
    if (!r.rollbackOk() && !DrillRecord.UNFINISHED.equals(r.verdict())) {
      return new Case(
          suite, name, time, "error", "rollback-failed", "a rollback failed: " + r.reason());
    }
    return switch (r.verdict()) {
      case "held" -> new Case(suite, name, time, "pass", "", "");
      case "deviated", "aborted" -> new Case(suite, name, time, "failure", r.verdict(), r.reason());
      case "not-run" ->
          new Case(suite, name, time, "skipped", r.verdict(), r.verdict() + ": " + r.reason());
      case "inconclusive", "refused" ->
          new Case(suite, name, time, "error", r.verdict(), r.verdict() + ": " + r.reason());
      default -> new Case(suite, name, time, "error", r.verdict(), r.reason());
    };
  }

  private static void property(StringBuilder xml, String name, String value) {
    xml.append("    <property name=\"")
        .append(Escape.xml(name))
        .append("\" value=\"")
        .append(Escape.xml(value))
        .append("\"/>\n");
  }

  private static String time(double seconds) {
    return String.format(Locale.ROOT, "%.3f", seconds);
  }
}
