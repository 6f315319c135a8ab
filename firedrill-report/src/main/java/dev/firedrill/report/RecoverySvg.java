package dev.firedrill.report;

import dev.firedrill.experiment.Numbers;
import dev.firedrill.report.DrillRecord.Sample;
import dev.firedrill.report.Panels.Series;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The recovery curve: the measurements after the rollback (and the last one before it, where the
 * curve starts), in seconds after the rollback finished, up to the return to steady state.
 */
final class RecoverySvg {

  private static final double TOP = 30;

  private RecoverySvg() {}

  /** Empty when the drill measured nothing after a rollback. */
  static Optional<String> render(DrillRecord record) {
    Optional<Instant> zero = record.rollbackDoneAt().or(record::rollbackAt);
    List<Sample> after = record.samples().stream().filter(s -> "after".equals(s.phase())).toList();
    if (zero.isEmpty() || after.isEmpty()) {
      return Optional.empty();
    }
    Instant start =
        record.samples().stream()
            .filter(s -> !"after".equals(s.phase()))
            .filter(s -> s.at().isBefore(zero.get()))
            .reduce((a, b) -> b)
            .map(Sample::at)
            .orElse(zero.get());
    List<Series> series =
        TimelineSvg.series(
            record,
            s -> !s.at().isBefore(start),
            zero.get(),
            "recovery-line",
            "recovery-line guard");
    double from = seconds(start, zero.get());
    double to =
        Math.max(
            seconds(after.get(after.size() - 1).at(), zero.get()),
            record.recoveredAt().map(r -> seconds(r, zero.get())).orElse(0.0));
    Panels panels = new Panels(Math.min(0, from), Math.max(to, 1) * 1.05);
    double axisY = TOP + Panels.height(series.size()) - Panels.GAP + 8;
    double height = axisY + 40;
    Svg svg = new Svg();
    svg.open(
        "svg",
        "xmlns",
        "http://www.w3.org/2000/svg",
        "id",
        "recovery-curve",
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
        "recovery curve");
    panels.draw(svg, series, TOP);
    double x = panels.x(0);
    svg.titled(
        "line",
        "rollback finished",
        "class",
        "mark rollback",
        "x1",
        Svg.num(x),
        "x2",
        Svg.num(x),
        "y1",
        Svg.num(TOP - 12),
        "y2",
        Svg.num(axisY));
    svg.text(
        "text",
        "rollback done",
        "class",
        "mark-label rollback",
        "x",
        Svg.num(x + 3),
        "y",
        Svg.num(TOP - 2));
    record
        .recoveredAt()
        .ifPresent(
            r -> {
              double rx = panels.x(seconds(r, zero.get()));
              svg.titled(
                  "line",
                  "back in steady state +"
                      + Numbers.format(TimelineSvg.round(seconds(r, zero.get())))
                      + "s after the rollback",
                  "id",
                  "recovered-mark",
                  "class",
                  "mark recovered",
                  "x1",
                  Svg.num(rx),
                  "x2",
                  Svg.num(rx),
                  "y1",
                  Svg.num(TOP - 12),
                  "y2",
                  Svg.num(axisY));
              String[] beside = Panels.labelBeside(rx);
              svg.text(
                  "text",
                  "recovered",
                  "class",
                  "mark-label recovered",
                  "x",
                  beside[0],
                  "y",
                  Svg.num(TOP - 2),
                  "text-anchor",
                  beside[1]);
            });
    panels.axis(svg, axisY, "seconds after the rollback");
    svg.close("svg");
    return Optional.of(svg.toString());
  }

  private static double seconds(Instant at, Instant zero) {
    return (at.toEpochMilli() - zero.toEpochMilli()) / 1000.0;
  }
}
