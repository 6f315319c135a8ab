package dev.firedrill.report;

import dev.firedrill.experiment.Numbers;
import java.util.OptionalDouble;

/** The planned worst case and the measured spend as bars, against the ceiling as a line. */
final class BudgetSvg {

  private static final double WIDTH = 640;
  private static final double LEFT = 190;
  private static final double BAR = 18;

  private BudgetSvg() {}

  static String render(Budget budget) {
    double top =
        Math.max(
            budget.ceilingPercent().orElse(0),
            Math.max(budget.plannedPercent().orElse(0), budget.measuredPercent().orElse(0)));
    double scale = top <= 0 ? 1 : top * 1.15;
    Svg svg = new Svg();
    svg.open(
        "svg",
        "xmlns",
        "http://www.w3.org/2000/svg",
        "id",
        "budget",
        "class",
        "chart",
        "viewBox",
        "0 0 " + Svg.num(WIDTH) + " 92",
        "width",
        Svg.num(WIDTH),
        "height",
        "92",
        "role",
        "img",
        "aria-label",
        "error budget against the ceiling");
    bar(svg, "planned", "worst case (plan)", budget.plannedPercent(), scale, 10);
    bar(svg, "measured", "spent (measured)", budget.measuredPercent(), scale, 36);
    budget
        .ceilingPercent()
        .ifPresent(
            c -> {
              double x = x(c, scale);
              svg.titled(
                  "line",
                  "ceiling " + Numbers.format(c) + "% of the budget",
                  "id",
                  "budget-ceiling",
                  "x1",
                  Svg.num(x),
                  "x2",
                  Svg.num(x),
                  "y1",
                  "4",
                  "y2",
                  "62");
              svg.text(
                  "text",
                  "ceiling " + Numbers.format(c) + "%",
                  "class",
                  "mark-label ceiling",
                  "x",
                  Svg.num(x),
                  "y",
                  "78",
                  "text-anchor",
                  "middle");
            });
    svg.close("svg");
    return svg.toString();
  }

  private static void bar(
      Svg svg, String kind, String label, OptionalDouble percent, double scale, double y) {
    svg.text(
        "text",
        label,
        "class",
        "lane-label",
        "x",
        Svg.num(LEFT - 8),
        "y",
        Svg.num(y + 13),
        "text-anchor",
        "end");
    if (percent.isEmpty()) {
      svg.text("text", "unknown", "class", "y-label", "x", Svg.num(LEFT + 4), "y", Svg.num(y + 13));
      return;
    }
    double p = percent.getAsDouble();
    svg.titled(
        "rect",
        label + ": " + format(p) + "% of the error budget",
        "class",
        "budget-bar " + kind,
        "x",
        Svg.num(LEFT),
        "y",
        Svg.num(y),
        "width",
        Svg.num(Math.max(1, x(p, scale) - LEFT)),
        "height",
        Svg.num(BAR));
    svg.text(
        "text",
        format(p) + "%",
        "class",
        "y-label",
        "x",
        Svg.num(x(p, scale) + 4),
        "y",
        Svg.num(y + 13));
  }

  static String format(double percent) {
    return Numbers.format(percent);
  }

  private static double x(double percent, double scale) {
    return LEFT + percent / scale * (WIDTH - LEFT - 60);
  }
}
