package dev.firedrill.programme.trend;

import dev.firedrill.history.DetectionRecord;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One alert's time to detect and time to notify over its runs, against its floor, as inline SVG (no
 * script, no external resource: the report's Content-Security-Policy allows neither). Runs are
 * evenly spaced in run order; a run in which the alert did not fire is a mark on the top edge.
 */
public final class TrendSvg {

  private static final int WIDTH = 640;
  private static final int HEIGHT = 170;
  private static final int LEFT = 48;
  private static final int RIGHT = 16;
  private static final int TOP = 22;
  private static final int BOTTOM = 28;

  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC);

  private TrendSvg() {}

  /** {@code runs} oldest first, all of one alert key; {@code floor} in seconds, when known. */
  public static String render(String alertKey, List<DetectionRecord> runs, OptionalDouble floor) {
    double max = floor.orElse(0);
    for (DetectionRecord r : runs) {
      max = Math.max(max, seconds(r.timeToDetect()).orElse(0));
      max = Math.max(max, seconds(r.timeToNotify()).orElse(0));
    }
    double top = max <= 0 ? 1 : max * 1.15;
    StringBuilder s = new StringBuilder();
    s.append("<svg class=\"chart trend\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ")
        .append(WIDTH)
        .append(' ')
        .append(HEIGHT)
        .append("\" role=\"img\" aria-label=\"")
        .append(
            esc("time to detect and to notify of " + alertKey + " over " + runs.size() + " runs"))
        .append("\">\n<rect class=\"panel-frame\" x=\"0.5\" y=\"0.5\" width=\"")
        .append(WIDTH - 1)
        .append("\" height=\"")
        .append(HEIGHT - 1)
        .append("\"/>\n<text class=\"panel-title\" x=\"8\" y=\"15\">")
        .append(esc(alertKey))
        .append("</text>\n");
    axis(s, top);
    floor.ifPresent(
        f -> {
          double y = y(f, top);
          s.append("<line class=\"threshold trend-floor\" x1=\"")
              .append(LEFT)
              .append("\" x2=\"")
              .append(WIDTH - RIGHT)
              .append("\" y1=\"")
              .append(fmt(y))
              .append("\" y2=\"")
              .append(fmt(y))
              .append("\"/>\n<text class=\"mark-label ceiling\" x=\"")
              .append(WIDTH - RIGHT - 4)
              .append("\" y=\"")
              .append(fmt(y - 3))
              .append("\" text-anchor=\"end\">floor ")
              .append(fmt(f))
              .append("s</text>\n");
        });
    series(s, runs, top, true);
    series(s, runs, top, false);
    for (int i = 0; i < runs.size(); i++) {
      DetectionRecord r = runs.get(i);
      if (r.timeToDetect().isEmpty()) {
        s.append("<text class=\"mark-label abort trend-missed\" x=\"")
            .append(fmt(x(i, runs.size())))
            .append("\" y=\"")
            .append(TOP + 10)
            .append("\" text-anchor=\"middle\"><title>")
            .append(esc(DAY.format(r.runAt()) + " " + r.experiment() + ": did not fire"))
            .append("</title>x</text>\n");
      }
      s.append("<text class=\"tick-label\" x=\"")
          .append(fmt(x(i, runs.size())))
          .append("\" y=\"")
          .append(HEIGHT - 10)
          .append("\" text-anchor=\"middle\">")
          .append(DAY.format(r.runAt()))
          .append("</text>\n");
    }
    return s.append("</svg>\n").toString();
  }

  private static void series(
      StringBuilder s, List<DetectionRecord> runs, double top, boolean detect) {
    StringBuilder points = new StringBuilder();
    StringBuilder dots = new StringBuilder();
    String name = detect ? "detect" : "notify";
    for (int i = 0; i < runs.size(); i++) {
      DetectionRecord r = runs.get(i);
      OptionalDouble v = seconds(detect ? r.timeToDetect() : r.timeToNotify());
      if (v.isEmpty()) {
        continue;
      }
      String px = fmt(x(i, runs.size()));
      String py = fmt(y(v.getAsDouble(), top));
      points.append(points.length() == 0 ? "" : " ").append(px).append(',').append(py);
      dots.append("<circle class=\"trend-")
          .append(name)
          .append("-point\" cx=\"")
          .append(px)
          .append("\" cy=\"")
          .append(py)
          .append("\" r=\"3\"><title>")
          .append(
              esc(
                  DAY.format(r.runAt())
                      + " "
                      + r.experiment()
                      + ": time to "
                      + name
                      + " "
                      + fmt(v.getAsDouble())
                      + "s"))
          .append("</title></circle>\n");
    }
    if (points.length() > 0) {
      s.append("<polyline class=\"")
          .append(detect ? "sli-line" : "sli-line control")
          .append(" trend-")
          .append(name)
          .append("\" points=\"")
          .append(points)
          .append("\"/>\n");
    }
    s.append(dots);
  }

  private static void axis(StringBuilder s, double top) {
    int bottom = HEIGHT - BOTTOM;
    s.append("<line class=\"axis\" x1=\"")
        .append(LEFT)
        .append("\" x2=\"")
        .append(LEFT)
        .append("\" y1=\"")
        .append(TOP)
        .append("\" y2=\"")
        .append(bottom)
        .append("\"/>\n<line class=\"axis\" x1=\"")
        .append(LEFT)
        .append("\" x2=\"")
        .append(WIDTH - RIGHT)
        .append("\" y1=\"")
        .append(bottom)
        .append("\" y2=\"")
        .append(bottom)
        .append("\"/>\n");
    for (double tick : new double[] {0, top / 2, top}) {
      s.append("<text class=\"y-label\" x=\"")
          .append(LEFT - 4)
          .append("\" y=\"")
          .append(fmt(y(tick, top) + 4))
          .append("\" text-anchor=\"end\">")
          .append(fmt(tick))
          .append("s</text>\n");
    }
  }

  private static double x(int i, int n) {
    double span = WIDTH - LEFT - RIGHT - 20;
    return n <= 1 ? LEFT + 10 + span / 2 : LEFT + 10 + span * i / (n - 1);
  }

  private static double y(double seconds, double top) {
    double span = HEIGHT - TOP - BOTTOM;
    return HEIGHT - BOTTOM - span * seconds / top;
  }

  private static OptionalDouble seconds(Optional<Duration> d) {
    return d.map(v -> OptionalDouble.of(v.toMillis() / 1000.0)).orElse(OptionalDouble.empty());
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
