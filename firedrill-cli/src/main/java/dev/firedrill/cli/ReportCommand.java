package dev.firedrill.cli;

import dev.firedrill.engine.JournalPaths;
import dev.firedrill.report.DrillRecord;
import dev.firedrill.report.JournalReader;
import dev.firedrill.report.ReportFormat;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "report",
    description =
        "Write a drill's report from its journal, beside it (the journal's name with .html, .md or"
            + " .junit.xml; the path is printed), or where -o says: html (timeline, recovery curve, "
            + "detection, error budget; one self-contained file), md (the results write-up for a ticket) or junit "
            + "(one test case per hypothesis and per expected alert, for CI).")
final class ReportCommand implements Callable<Integer> {

  @Parameters(paramLabel = "JOURNAL", description = "The journal a drill wrote.")
  Path journal;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "html",
      converter = FormatConverter.class,
      description = "html, md or junit (default: ${DEFAULT-VALUE}).")
  ReportFormat format;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description =
          "Write the report here; - for stdout (default: beside the journal, named after it).")
  String output;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    DrillRecord record;
    try {
      record = JournalReader.read(journal);
    } catch (IOException e) {
      throw new UserError("firedrill report: " + e.getMessage(), ExitCode.INVALID, e);
    }
    String text = format.render(record);
    PrintWriter out = spec.commandLine().getOut();
    if ("-".equals(output)) {
      out.print(text);
    } else {
      Path file = output != null ? Path.of(output) : JournalPaths.beside(journal, format.suffix());
      try {
        Files.writeString(file, text);
      } catch (IOException e) {
        throw new UserError(
            "firedrill report: " + file + ": cannot write the report: " + e.getMessage(),
            ExitCode.INVALID,
            e);
      }
      out.println("report: " + file.toAbsolutePath());
    }
    out.flush();
    return ExitCode.HELD;
  }

  static final class FormatConverter implements CommandLine.ITypeConverter<ReportFormat> {
    @Override
    public ReportFormat convert(String value) {
      return Arrays.stream(ReportFormat.values())
          .filter(f -> f.text().equals(value))
          .findFirst()
          .orElseThrow(
              () ->
                  new CommandLine.TypeConversionException(
                      "expected "
                          + Arrays.stream(ReportFormat.values())
                              .map(ReportFormat::text)
                              .collect(Collectors.joining(", "))
                          + ", got '"
                          + value
                          + "'"));
    }
  }
}
