package dev.firedrill.cli;

import dev.firedrill.engine.JournalFile;
import dev.firedrill.engine.JournalPaths;
import dev.firedrill.report.HtmlReport;
import dev.firedrill.report.JournalReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/** The HTML report that {@code run} and {@code demo} write next to the journal. */
final class ReportBeside {

  private ReportBeside() {}

  /**
   * Writes the report from the journal file as it ended up on disk; a report that cannot be written
   * is one line, never a change to the drill's exit code: the journal is the evidence.
   */
  static void write(JournalFile journal, PrintWriter events) {
    Path html = JournalPaths.beside(journal.path(), ".html");
    try {
      Files.writeString(html, HtmlReport.render(JournalReader.read(journal.path())));
      events.println("report: " + html);
    } catch (IOException | RuntimeException e) {
      events.println("report: not written to " + html + ": " + e.getMessage());
    }
    events.flush();
  }
}
