package dev.firedrill.report;

import dev.firedrill.experiment.Numbers;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * One small chart per series, stacked and sharing an x axis in seconds: each SLI has its own unit
 * and scale, so one shared y axis would flatten all but the largest.
 */
final class Panels {

  static final double LEFT = 190;
  static final double WIDTH = 960;
  static final double RIGHT = 24;
  static final double PANEL = 96;
  static final double GAP = 30;

  /**
   * One SLI's (or the burn-rate guard's) readings, with its healthy range; {@code control} holds
   * the control group's readings of an SLI with a control group, drawn in the same panel.
   */
  record Series(
      String name, String lineClass, Range range, List<Point> points, List<Point> control) {
    Series {
      points = List.copyOf(points);
      control = List.copyOf(control);
    }
  }

  record Point(double x, double value, String status) {}

  private final double x0;
  private final double x1;

  Panels(double x0, double x1) {
    this.x0 = x0;
    this.x1 = x1 > x0 ? x1 : x0 + 1;
  }

  double x(double seconds) {
    return LEFT + (seconds - x0) / (x1 - x0) * (WIDTH - LEFT - RIGHT);
  }

  /** Where a label beside a vertical mark at {@code x} goes: to its left near the right edge. */
  static String[] labelBeside(double x) {
    return x > WIDTH - RIGHT - 90
        ? new String[] {Svg.num(x - 3), "end"}
        : new String[] {Svg.num(x + 3), "start"};
  }

  static double height(int series) {
    return series * (PANEL + GAP);
  }

  /** Draws the panels from {@code top}; returns the y below the last one. */
  double draw(Svg svg, List<Series> series, double top) {
    double y = top;
    for (Series s : series) {
      panel(svg, s, y);
      y += PANEL + GAP;
    }
    return y;
  }

  /** Tick marks and labels in seconds along {@code y}. */
  void axis(Svg svg, double y, String label) {
    svg.empty(
        "line",
        "class",
        "axis",
        "x1",
        Svg.num(LEFT),
        "x2",
        Svg.num(WIDTH - RIGHT),
        "y1",
        Svg.num(y),
        "y2",
        Svg.num(y));
    double step = step((x1 - x0) / 8);
    for (double t = Math.ceil(x0 / step) * step; t <= x1 + 1e-9; t += step) {
      svg.empty(
          "line",
          "class",
          "tick",
          "x1",
          Svg.num(x(t)),
          "x2",
          Svg.num(x(t)),
          "y1",
          Svg.num(y),
          "y2",
          Svg.num(y + 4));
      svg.text(
          "text",
          (t > 0 && x0 < 0 ? "+" : "") + Numbers.format(Math.round(t * 10) / 10.0) + "s",
          "class",
          "tick-label",
          "x",
          Svg.num(x(t)),
          "y",
          Svg.num(y + 16),
          "text-anchor",
          "middle");
    }
    svg.text(
        "text",
        label,
        "class",
        "axis-label",
        "x",
        Svg.num(WIDTH - RIGHT),
        "y",
        Svg.num(y + 30),
        "text-anchor",
        "end");
  }

  private void panel(Svg svg, Series s, double top) {
    double[] scale = scale(s);
    double lo = scale[0];
    double hi = scale[1];
    double bottom = top + PANEL;
    svg.open("g", "class", "panel", "data-sli", s.name());
    svg.empty(
        "rect",
        "class",
        "panel-frame",
        "x",
        Svg.num(LEFT),
        "y",
        Svg.num(top),
        "width",
        Svg.num(WIDTH - LEFT - RIGHT),
        "height",
        Svg.num(PANEL));
    svg.text(
        "text",
        s.name(),
        "class",
        "panel-title",
        "x",
        Svg.num(LEFT - 8),
        "y",
        Svg.num(top + 14),
        "text-anchor",
        "end");
    svg.text(
        "text",
        "healthy " + s.range().text(),
        "class",
        "panel-range",
        "x",
        Svg.num(LEFT - 8),
        "y",
        Svg.num(top + 30),
        "text-anchor",
        "end");
    svg.text(
        "text",
        Numbers.format(hi),
        "class",
        "y-label",
        "x",
        Svg.num(LEFT + 4),
        "y",
        Svg.num(top + 11));
    svg.text(
        "text",
        Numbers.format(lo),
        "class",
        "y-label",
        "x",
        Svg.num(LEFT + 4),
        "y",
        Svg.num(bottom - 3));
    for (OptionalDouble bound : List.of(s.range().min(), s.range().max())) {
      if (bound.isPresent()) {
        double y = y(bound.getAsDouble(), lo, hi, top);
        svg.titled(
            "line",
            s.name() + " threshold " + s.range().text(),
            "class",
            "threshold",
            "data-sli",
            s.name(),
            "x1",
            Svg.num(LEFT),
            "x2",
            Svg.num(WIDTH - RIGHT),
            "y1",
            Svg.num(y),
            "y2",
            Svg.num(y));
      }
    }
    line(svg, s, s.points(), s.lineClass(), "experiment", "", lo, hi, top);
    if (!s.control().isEmpty()) {
      // The control group's line beside the experiment group's, on the same scale: the gap
      // between them is what the SLI's delta and ratio bounds judge.
      line(svg, s, s.control(), s.lineClass() + " control", "control", " control", lo, hi, top);
      svg.text(
          "text",
          "dashed: control group",
          "class",
          "panel-range",
          "x",
          Svg.num(LEFT - 8),
          "y",
          Svg.num(top + 46),
          "text-anchor",
          "end");
    }
    svg.close("g");
  }

  private void line(
      Svg svg,
      Series s,
      List<Point> points,
      String lineClass,
      String group,
      String suffix,
      double lo,
      double hi,
      double top) {
    List<String> coordinates = new ArrayList<>();
    for (Point p : points) {
      coordinates.add(Svg.num(x(p.x())) + "," + Svg.num(y(p.value(), lo, hi, top)));
    }
    if (!coordinates.isEmpty()) {
      svg.empty(
          "polyline",
          "class",
          lineClass,
          "data-sli",
          s.name(),
          "data-group",
          group,
          "points",
          String.join(" ", coordinates));
    }
    for (Point p : points) {
      svg.titled(
          "circle",
          s.name()
              + suffix
              + " "
              + Numbers.format(p.value())
              + " at +"
              + Numbers.format(p.x())
              + "s ("
              + p.status()
              + ")",
          "class",
          "sample " + p.status(),
          "data-sli",
          s.name(),
          "data-group",
          group,
          "cx",
          Svg.num(x(p.x())),
          "cy",
          Svg.num(y(p.value(), lo, hi, top)),
          "r",
          "3");
    }
  }

  private static double y(double value, double lo, double hi, double top) {
    return top + PANEL - (value - lo) / (hi - lo) * PANEL;
  }

  /** The values and the thresholds all fit, with a margin so neither sits on the frame. */
  private static double[] scale(Series s) {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    List<Double> all = new ArrayList<>();
    s.points().forEach(p -> all.add(p.value()));
    s.control().forEach(p -> all.add(p.value()));
    s.range().min().ifPresent(all::add);
    s.range().max().ifPresent(all::add);
    for (double v : all) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    if (all.isEmpty()) {
      return new double[] {0, 1};
    }
    if (hi - lo < 1e-12) {
      double pad = lo == 0 ? 1 : Math.abs(lo) * 0.1;
      return new double[] {lo - pad, hi + pad};
    }
    double pad = (hi - lo) * 0.08;
    // Ratios and latencies cannot go below zero; an axis that does only confuses.
    return new double[] {lo >= 0 ? Math.max(0, lo - pad) : lo - pad, hi + pad};
  }

  /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
  private static double step(double raw) {
    double power = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-3))));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * power >= raw) {
        return m * power;
      }
    }
    return 10 * power;
  }
}
