package dev.firedrill.cli;

import dev.firedrill.engine.Cleanup;
import dev.firedrill.engine.Journal;
import dev.firedrill.engine.JournalFile;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "cleanup",
    description =
        "Revert every fault a journal shows as injected and not reverted "
            + "(after firedrill was killed). Exit 0 when nothing is left, 7 when a fault needs a human.")
final class CleanupCommand implements Callable<Integer> {

  @Parameters(paramLabel = "JOURNAL", description = "The journal of the drill to clean up.")
  Path journalPath;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    JournalFile file = new JournalFile(journalPath);
    Journal journal;
    try {
      journal = file.read();
    } catch (IOException e) {
      throw new UserError(e.getMessage(), ExitCode.INVALID, e);
    }
    PrintWriter out = spec.commandLine().getOut();
    Cleanup.Result result =
        new Cleanup(Wiring.faultsForCleanup(journal), Clock.system())
            .run(journal, file, outcome -> out.println(outcome.line()));
    if (result.outcomes().isEmpty()) {
      out.println(journalPath + ": nothing left to revert");
    }
    return ExitCode.of(result);
  }
}
