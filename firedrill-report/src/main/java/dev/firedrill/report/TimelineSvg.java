package dev.firedrill.report;

import dev.firedrill.experiment.Numbers;
import dev.firedrill.report.DrillRecord.Alert;
import dev.firedrill.report.DrillRecord.Sample;
import dev.firedrill.report.Panels.Point;
import dev.firedrill.report.Panels.Series;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The drill on one time axis (seconds since it started): each SLI and the burn-rate guard with
 * their thresholds, the fault window shaded, the abort, rollback and recovery marks, and one lane
 * per expected alert with its pending, firing and notified marks.
 */
final class TimelineSvg {

  private static final double TOP = 52;
  private static final double LANE = 24;

  private TimelineSvg() {}

  static String render(DrillRecord record) {
    List<Series> series = series(record, s -> true, record.startedAt(), "sli-line", "guard-line");
    double end = 1;
    for (Sample s : record.samples()) {
      end = Math.max(end, record.seconds(s.at()));
    }
    for (Optional<Instant> at :
        List.of(record.recoveredAt(), record.finishedAt(), record.rollbackDoneAt())) {
      if (at.isPresent()) {
        end = Math.max(end, record.seconds(at.get()));
      }
    }
    List<Alert> alerts = record.detection().map(DrillRecord.Detection::alerts).orElse(List.of());
    double injected = record.injectedAt().map(record::seconds).orElse(0.0);
    for (Alert a : alerts) {
      for (OptionalDouble mark : List.of(a.pendingS(), a.timeToDetectS(), a.notifiedS())) {
        if (mark.isPresent()) {
          end = Math.max(end, injected + mark.getAsDouble());
        }
      }
    }
    Panels panels = new Panels(0, end * 1.02);
    double panelsBottom = TOP + Panels.height(series.size()) - Panels.GAP;
    double lanesTop = panelsBottom + (alerts.isEmpty() ? 0 : 30);
    double axisY = lanesTop + alerts.size() * LANE + 8;
    double height = axisY + 40;

    Svg svg = new Svg();
    svg.open(
        "svg",
        "xmlns",
        "http://www.w3.org/2000/svg",
        "id",
        "timeline",
        "class",
        "chart",
        "viewBox",
        "0 0 " + Svg.num(Panels.WIDTH) + " " + Svg.num(height),
        "width",
        Svg.num(Panels.WIDTH),
        "height",
        Svg.num(height),
        "role",
        "img",
        "aria-label",
        "drill timeline");
    faultWindow(svg, record, panels, TOP - 8, axisY);
    panels.draw(svg, series, TOP);
    marks(svg, record, panels, 4, axisY);
    lanes(svg, alerts, injected, panels, lanesTop);
    panels.axis(svg, axisY, "seconds since start");
    svg.close("svg");
    return svg.toString();
  }

  /**
   * The SLIs in the experiment's order, then the burn-rate guard, from the samples {@code keep}
   * accepts, with x in seconds after {@code zero}.
   */
  static List<Series> series(
      DrillRecord record,
      Predicate<Sample> keep,
      Instant zero,
      String sliClass,
      String guardClass) {
    List<Series> series = new ArrayList<>();
    for (DrillRecord.Sli sli : record.experiment().slis()) {
      series.add(
          new Series(
              sli.name(),
              sliClass,
              sli.range(),
              points(record, sli.name(), keep, zero, DrillRecord.Value::value),
              points(record, sli.name(), keep, zero, DrillRecord.Value::control)));
    }
    record
        .experiment()
        .burnRate()
        .ifPresent(
            burn ->
                series.add(
                    new Series(
                        Budget.BURN_RATE,
                        guardClass,
                        Range.parse("<= " + Numbers.format(burn.max())),
                        points(record, Budget.BURN_RATE, keep, zero, DrillRecord.Value::value),
                        List.of())));
    return series;
  }

  /** The samples' {@code which} value (the SLI's own, or its control group's) as points. */
  private static List<Point> points(
      DrillRecord record,
      String name,
      Predicate<Sample> keep,
      Instant zero,
      Function<DrillRecord.Value, OptionalDouble> which) {
    List<Point> points = new ArrayList<>();
    for (Sample sample : record.samples()) {
      if (!keep.test(sample)) {
        continue;
      }
      sample
          .value(name)
          .ifPresent(
              v ->
                  which
                      .apply(v)
                      .ifPresent(
                          value ->
                              points.add(
                                  new Point(
                                      (sample.at().toEpochMilli() - zero.toEpochMilli()) / 1000.0,
                                      value,
                                      v.status()))));
    }
    return points;
  }

  private static void faultWindow(
      Svg svg, DrillRecord record, Panels panels, double top, double bottom) {
    if (record.injectedAt().isEmpty()) {
      return;
    }
    double from = record.seconds(record.injectedAt().get());
    double to =
        record
            .rollbackDoneAt()
            .or(record::rollbackAt)
            .map(record::seconds)
            .orElse(
                record.samples().isEmpty()
                    ? from
                    : record.seconds(record.samples().get(record.samples().size() - 1).at()));
    svg.titled(
        "rect",
        "faults on from +"
            + Numbers.format(round(from))
            + "s to +"
            + Numbers.format(round(to))
            + "s",
        "id",
        "fault-window",
        "x",
        Svg.num(panels.x(from)),
        "y",
        Svg.num(top),
        "width",
        Svg.num(Math.max(2, panels.x(to) - panels.x(from))),
        "height",
        Svg.num(bottom - top));
    String[] label = Panels.labelBeside(panels.x(from));
    svg.text(
        "text",
        "faults on",
        "class",
        "mark-label fault",
        "x",
        label[0],
        "y",
        Svg.num(top + 2),
        "text-anchor",
        label[1]);
  }

  private static void marks(Svg svg, DrillRecord record, Panels panels, double top, double bottom) {
    mark(
        svg,
        record,
        record.abortedAt(),
        "abort-mark",
        "abort",
        panels,
        top,
        bottom,
        10,
        "aborted" + record.abortReason().map(r -> ": " + r).orElse(""));
    mark(
        svg,
        record,
        record.rollbackAt(),
        "rollback-mark",
        "rollback",
        panels,
        top,
        bottom,
        24,
        "rollback");
    mark(
        svg,
        record,
        record.recoveredAt(),
        "recovery-mark",
        "recovered",
        panels,
        top,
        bottom,
        10,
        "back in steady state");
  }

  private static void mark(
      Svg svg,
      DrillRecord record,
      Optional<Instant> at,
      String id,
      String label,
      Panels panels,
      double top,
      double bottom,
      double labelY,
      String title) {
    if (at.isEmpty()) {
      return;
    }
    double x = panels.x(record.seconds(at.get()));
    svg.titled(
        "line",
        title + " at +" + Numbers.format(round(record.seconds(at.get()))) + "s",
        "id",
        id,
        "class",
        "mark " + label,
        "x1",
        Svg.num(x),
        "x2",
        Svg.num(x),
        "y1",
        Svg.num(top),
        "y2",
        Svg.num(bottom));
    String[] beside = Panels.labelBeside(x);
    svg.text(
        "text",
        label,
        "class",
        "mark-label " + label,
        "x",
        beside[0],
        "y",
        Svg.num(top + labelY),
        "text-anchor",
        beside[1]);
  }

  private static void lanes(
      Svg svg, List<Alert> alerts, double injected, Panels panels, double top) {
    double y = top;
    for (Alert a : alerts) {
      double mid = y + LANE / 2;
      svg.open(
          "g",
          "class",
          "alert-lane " + a.result().toLowerCase(java.util.Locale.ROOT),
          "data-alert",
          a.describe());
      svg.label(
          a.alert(),
          a.describe(),
          "class",
          "lane-label",
          "x",
          Svg.num(Panels.LEFT - 8),
          "y",
          Svg.num(mid + 4),
          "text-anchor",
          "end");
      svg.titled(
          "line",
          "expected " + a.expect() + " within " + Numbers.format(a.withinS()) + "s of injection",
          "class",
          "alert-window " + a.expect(),
          "x1",
          Svg.num(panels.x(injected)),
          "x2",
          Svg.num(panels.x(injected + a.withinS())),
          "y1",
          Svg.num(mid),
          "y2",
          Svg.num(mid));
      alertMark(svg, a, "pending", a.pendingS(), injected, panels, mid);
      alertMark(svg, a, "firing", a.timeToDetectS(), injected, panels, mid);
      alertMark(svg, a, "notified", a.notifiedS(), injected, panels, mid);
      svg.close("g");
      y += LANE;
    }
  }

  private static void alertMark(
      Svg svg,
      Alert a,
      String state,
      OptionalDouble afterInjection,
      double injected,
      Panels panels,
      double y) {
    if (afterInjection.isEmpty()) {
      return;
    }
    double x = panels.x(injected + afterInjection.getAsDouble());
    svg.titled(
        "circle",
        a.describe()
            + " "
            + state
            + " +"
            + Numbers.format(round(afterInjection.getAsDouble()))
            + "s after injection",
        "class",
        "alert-mark " + state,
        "data-alert",
        a.describe(),
        "cx",
        Svg.num(x),
        "cy",
        Svg.num(y),
        "r",
        "firing".equals(state) ? "6" : "5");
  }

  static double round(double seconds) {
    return Math.round(seconds * 10) / 10.0;
  }
}
