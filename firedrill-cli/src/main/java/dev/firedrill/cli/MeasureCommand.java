package dev.firedrill.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.Numbers;
import dev.firedrill.experiment.Targets;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import dev.firedrill.time.Clock;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "measure",
    description =
        "Measure every SLI and the burn-rate guard once and print a table. "
            + "Exit 0 within steady state, 1 outside it, 4 when a query had no data or failed.")
final class MeasureCommand implements Callable<Integer> {

  @Parameters(paramLabel = "FILE", description = "The experiment file (YAML or JSON).")
  Path file;

  @Mixin OutputOption output;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    Experiment experiment = Wiring.load(file);
    Measurement measurement =
        Wiring.measurer(experiment, System.getenv(), Clock.system())
            .measure(Targets.BEFORE_INJECTION);
    PrintWriter out = spec.commandLine().getOut();
    List<Reading> readings = measurement.readings().toList();
    if (output.json()) {
      ObjectNode doc = OutputOption.document("measure");
      doc.put("experiment", experiment.id());
      doc.put("status", measurement.status().text());
      doc.put("exit_code", ExitCode.of(measurement.status()));
      ArrayNode rows = doc.putArray("readings");
      for (Reading reading : readings) {
        ObjectNode row = rows.addObject();
        row.put("name", reading.name());
        row.put("status", reading.status().text());
        if (reading.value().isPresent() && Double.isFinite(reading.value().getAsDouble())) {
          row.put("value", reading.value().getAsDouble());
        } else {
          row.putNull("value");
        }
        row.put("expected", reading.expectation());
        row.put("detail", reading.detail());
      }
      OutputOption.print(out, doc);
      return ExitCode.of(measurement.status());
    }
    int width = Math.max(4, readings.stream().mapToInt(r -> r.name().length()).max().orElse(4));
    String format = "%-" + width + "s  %-12s  %-12s  %s%n";
    out.printf(format, "NAME", "VALUE", "EXPECTED", "STATUS");
    for (Reading reading : readings) {
      String value =
          reading.value().isPresent() ? Numbers.format(reading.value().getAsDouble()) : "-";
      String status =
          common.colour().verdict(reading.status().text())
              + (reading.detail().isEmpty() || reading.value().isPresent()
                  ? ""
                  : ": " + reading.detail());
      out.printf(format, reading.name(), value, reading.expectation(), status);
    }
    return ExitCode.of(measurement.status());
  }
}
