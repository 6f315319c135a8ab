package dev.firedrill.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code firedrill} command. */
@Command(
    name = "firedrill",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Chaos experiments as fire drills for a service and the observability stack that watches it.",
    subcommands = {
      ValidateCommand.class,
      PlanCommand.class,
      MeasureCommand.class,
      RunCommand.class,
      CleanupCommand.class,
      ReportCommand.class,
      DemoCommand.class,
      ProxyCommand.class,
      PrometheusCommand.class,
      LoadCommand.class,
      RulesCommand.class,
      RoutesCommand.class,
      AlertmanagerCommand.class,
      LabCommand.class,
      HistoryCommand.class,
      SimulateCommand.class,
      CommandLine.HelpCommand.class
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:held, and every fault rolled back",
      "1:deviated: the hypothesis broke (history --check: a detection regressed)",
      "2:invalid input, or refused by the blast radius or the budget",
      "3:aborted by a guard, the abort file or a signal",
      "4:inconclusive: no data to prove anything (history --check: no history)",
      "5:not-run: outside steady state before injection",
      "6:a fault could not be injected",
      "7:a rollback failed and needs a human"
    })
public final class Main {

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command line; tests call it with their own writers. */
  public static CommandLine commandLine() {
    CommandLine line = new CommandLine(new Main());
    line.setExecutionExceptionHandler(Main::handle);
    line.setParameterExceptionHandler((ex, args) -> {
      ex.getCommandLine().getErr().println("firedrill: " + ex.getMessage());
      ex.getCommandLine().getErr().println("Try 'firedrill " + ex.getCommandLine().getCommandName() + " --help'.");
      return ExitCode.INVALID;
    });
    return line;
  }

  /** One line for a user error; the stack trace only with --verbose. */
  private static int handle(Exception ex, CommandLine line, CommandLine.ParseResult parsed) {
    PrintWriter err = line.getErr();
    boolean verbose = parsed.subcommands().stream().anyMatch(p -> p.hasMatchedOption("--verbose"))
        || parsed.hasMatchedOption("--verbose");
    if (ex instanceof UserError user) {
      err.println(user.getMessage());
      if (verbose && user.getCause() != null) {
        user.getCause().printStackTrace(err);
      }
      return user.exitCode();
    }
    err.println("firedrill: internal error: " + ex + (verbose ? "" : " (run with --verbose for the stack trace)"));
    if (verbose) {
      ex.printStackTrace(err);
    }
    return ExitCode.INVALID;
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = Main.class.getPackage().getImplementationVersion();
      return new String[] {"firedrill " + (version == null ? "dev" : version)};
    }
  }
}
