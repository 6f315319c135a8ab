package dev.firedrill.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import picocli.CommandLine;

/** One in-process run of {@code firedrill ARGS}: its exit code and what it printed. */
record CliRun(int exit, String out, String err) {

  static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine line = Main.commandLine();
    line.setOut(new PrintWriter(out, true));
    line.setErr(new PrintWriter(err, true));
    int exit = line.execute(args);
    return new CliRun(exit, out.toString(), err.toString());
  }

  /**
   * A history of its own beside {@code journal}, for {@code run --history}: the history's place
   * holds the target locks, and real-stack classes drill the same host's targets at the same time
   * (in one JVM and across failsafe's forks), which one shared {@code journals/} would refuse.
   */
  static String historyBeside(Path journal) {
    return journal.resolveSibling(journal.getFileName() + ".history.sqlite").toString();
  }

  /** For assertion messages. */
  String describe() {
    return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }
}
