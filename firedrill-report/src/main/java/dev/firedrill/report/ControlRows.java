package dev.firedrill.report;

import dev.firedrill.experiment.Numbers;
import java.util.ArrayList;
import java.util.List;

/**
 * Both groups of each SLI with a control group, measurement by measurement: the experiment group's
 * value, the control group's, their difference and their ratio, as the reports tabulate them.
 */
final class ControlRows {

  /** {@code cells}: at, phase, experiment, control, delta, ratio, status. */
  record Row(String sli, List<String> cells) {
    Row {
      cells = List.copyOf(cells);
    }
  }

  private ControlRows() {}

  static List<Row> of(DrillRecord record) {
    List<Row> rows = new ArrayList<>();
    for (DrillRecord.Sli sli : record.experiment().slis()) {
      if (sli.control().isEmpty()) {
        continue;
      }
      for (DrillRecord.Sample sample : record.samples()) {
        sample
            .value(sli.name())
            .ifPresent(
                value -> {
                  String experiment =
                      value.value().isPresent() ? Numbers.format(value.value().getAsDouble()) : "-";
                  String control =
                      value.control().isPresent()
                          ? Numbers.format(value.control().getAsDouble())
                          : "-";
                  String delta = "-";
                  String ratio = "-";
                  if (value.value().isPresent() && value.control().isPresent()) {
                    double e = value.value().getAsDouble();
                    double c = value.control().getAsDouble();
                    delta = Numbers.format(e - c);
                    ratio = c == 0 ? "-" : Numbers.format(e / c);
                  }
                  rows.add(
                      new Row(
                          sli.name(),
                          List.of(
                              "+" + MarkdownReport.seconds(record.seconds(sample.at())),
                              sample.phase(),
                              experiment,
                              control,
                              delta,
                              ratio,
                              value.status())));
                });
      }
    }
    return rows;
  }
}
