package dev.firedrill.cli;

import dev.firedrill.format.ControlChars;
import dev.firedrill.net.LoopbackHttpServer;
import dev.firedrill.yaml.NearestName;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** The {@code firedrill} command. */
@Command(
    name = "firedrill",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description =
        "Chaos experiments as fire drills for a service and the observability stack that watches it.",
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
      CompletionCommand.class,
      SchemaCommand.class,
      InitCommand.class,
      SuiteCommand.class,
      CoverageCommand.class,
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
    // The JDK reads its HTTP servers' limits once, when the first server starts: set them before
    // any (the metrics endpoint, the receiver, the proxy's admin API) can start without them.
    LoopbackHttpServer.preferNoDelay();
    System.exit(commandLine().execute(args));
  }

  /**
   * One example line per command, by its path below {@code firedrill}; every command has one (a
   * test walks the tree), shown at the end of its {@code --help}.
   */
  static final Map<String, String> EXAMPLES =
      Map.ofEntries(
          Map.entry("", "firedrill validate fixtures/experiments/payments-outage.yaml"),
          Map.entry("validate", "firedrill validate fixtures/experiments/payments-outage.yaml"),
          Map.entry("plan", "firedrill plan fixtures/experiments/payments-outage.yaml"),
          Map.entry("measure", "firedrill measure fixtures/experiments/payments-outage.yaml"),
          Map.entry("run", "firedrill run fixtures/experiments/payments-outage.yaml"),
          Map.entry("cleanup", "firedrill cleanup journals/payments-outage.json"),
          Map.entry("report", "firedrill report journals/payments-outage.json --format md"),
          Map.entry("demo", "firedrill demo --dir /tmp/firedrill-demo"),
          Map.entry(
              "proxy",
              "firedrill proxy --listen 127.0.0.1:18081 --upstream http://127.0.0.1:8081"
                  + " --admin 127.0.0.1:8474"),
          Map.entry(
              "prometheus", "firedrill prometheus --config prometheus.yml --listen 127.0.0.1:9090"),
          Map.entry(
              "alertmanager",
              "firedrill alertmanager --config alertmanager.yml --listen 127.0.0.1:9093"),
          Map.entry(
              "load",
              "firedrill load --url http://127.0.0.1:8080/checkout --rate 20 --duration 5m"),
          Map.entry("rules", "firedrill rules lint alert-rules/"),
          Map.entry("rules lint", "firedrill rules lint alert-rules/ --scrape-interval 15s"),
          Map.entry(
              "routes", "firedrill routes alertmanager.yml alertname=PaymentsDown severity=page"),
          Map.entry("lab", "firedrill lab up"),
          Map.entry("lab up", "firedrill lab up --state-dir .firedrill-lab"),
          Map.entry("lab down", "firedrill lab down"),
          Map.entry("lab status", "firedrill lab status --output json"),
          Map.entry(
              "lab payments", "firedrill lab payments --listen 127.0.0.1:8081 --latency 10ms"),
          Map.entry(
              "lab checkout",
              "firedrill lab checkout --payments http://127.0.0.1:18081 --listen 127.0.0.1:8080"),
          Map.entry("history", "firedrill history --check"),
          Map.entry("simulate", "firedrill simulate fixtures/experiments/payments-outage.yaml"),
          Map.entry(
              "completion",
              "firedrill completion bash > ~/.local/share/bash-completion/completions/firedrill"),
          Map.entry("schema", "firedrill schema > experiment.schema.json"),
          Map.entry(
              "init", "firedrill init --fault http-error --from-rules rules/ --alert CheckoutDown"),
          Map.entry("suite", "firedrill suite quarterly.yaml --keep-going"),
          Map.entry(
              "coverage", "firedrill coverage --rules alert-rules/ --experiments quarterly.yaml"),
          Map.entry("help", "firedrill help run"));

  /** Wide enough for every example on one line; picocli's 80 wraps a proxy command. */
  static final int USAGE_WIDTH = 100;

  /** The configured command line; tests call it with their own writers. */
  public static CommandLine commandLine() {
    CommandLine line = new CommandLine(new Main());
    everyCommand(line).forEach(Main::conventions);
    line.setExecutionExceptionHandler(Main::handle);
    line.setParameterExceptionHandler(Main::badArguments);
    line.setExecutionStrategy(Main::unknownCommandFirst);
    return line;
  }

  /** {@code line} and every command below it. */
  static List<CommandLine> everyCommand(CommandLine line) {
    List<CommandLine> all = new ArrayList<>(List.of(line));
    line.getSubcommands().values().stream()
        .distinct()
        .forEach(sub -> all.addAll(everyCommand(sub)));
    return all;
  }

  /**
   * What every command shares: -h/--help that works without the required parameters, defaults
   * shown, an example.
   */
  private static void conventions(CommandLine command) {
    CommandSpec spec = command.getCommandSpec();
    if (spec.findOption("--help") == null) {
      spec.addOption(
          OptionSpec.builder("-h", "--help")
              .usageHelp(true)
              .description("Show this help and exit.")
              .build());
    }
    // Only a declared default is shown (a field's initial value, such as 0 for a required --rate,
    // is not one),
    // and only where the description does not already explain it better.
    for (OptionSpec option : List.copyOf(spec.options())) {
      if (option.defaultValue() != null
          && !String.join(" ", option.description()).toLowerCase(Locale.ROOT).contains("default")) {
        spec.remove(option);
        spec.addOption(
            option.toBuilder().showDefaultValue(CommandLine.Help.Visibility.ALWAYS).build());
      }
    }
    spec.usageMessage().width(USAGE_WIDTH);
    String example = EXAMPLES.get(path(spec));
    if (example != null) {
      spec.usageMessage()
          .footer(
              append(spec.usageMessage().footer(), "%nExample:%n  " + example.replace("%", "%%")));
    }
  }

  private static String[] append(String[] lines, String line) {
    String[] all = Arrays.copyOf(lines, lines.length + 1);
    all[lines.length] = line;
    return all;
  }

  /**
   * The command's words below {@code firedrill}: {@code "rules lint"}, {@code ""} for firedrill
   * itself.
   */
  static String path(CommandSpec spec) {
    String qualified = spec.qualifiedName(" ");
    int space = qualified.indexOf(' ');
    return space < 0 ? "" : qualified.substring(space + 1);
  }

  /**
   * An unknown command is an error even beside {@code --help} (which would otherwise print the
   * parent's help and exit 0): one line naming the nearest command, exit 2.
   */
  private static int unknownCommandFirst(CommandLine.ParseResult parsed) {
    CommandLine.ParseResult leaf = parsed;
    while (leaf.hasSubcommand()) {
      leaf = leaf.subcommand();
    }
    CommandSpec spec = leaf.commandSpec();
    Optional<String> unknown = leaf.unmatched().stream().findFirst();
    if (unknown.isPresent() && !spec.subcommands().isEmpty()) {
      CommandLine command = spec.commandLine();
      command.getErr().println(unknownCommand(spec, unknown.get()));
      return ExitCode.INVALID;
    }
    return new CommandLine.RunLast().execute(parsed);
  }

  private static String unknownCommand(CommandSpec spec, String word) {
    List<String> names =
        spec.subcommands().keySet().stream().filter(name -> !"help".equals(name)).toList();
    String name = spec.qualifiedName(" ");
    return name
        + ": unknown command \""
        + word
        + "\"; "
        + NearestName.suggest(word, names, "the commands are: ")
        + " ('"
        + name
        + " --help' lists them)";
  }

  private static int badArguments(CommandLine.ParameterException ex, String[] args) {
    CommandLine command = ex.getCommandLine();
    CommandSpec spec = command.getCommandSpec();
    String name = spec.qualifiedName(" ");
    PrintWriter err = command.getErr();
    if (ex instanceof CommandLine.UnmatchedArgumentException unmatched
        && !spec.subcommands().isEmpty()
        && !unmatched.getUnmatched().isEmpty()
        && !unmatched.getUnmatched().get(0).startsWith("-")) {
      err.println(unknownCommand(spec, unmatched.getUnmatched().get(0)));
      return ExitCode.INVALID;
    }
    if (ex instanceof CommandLine.UnmatchedArgumentException unmatched) {
      Optional<String> option =
          unmatched.getUnmatched().stream().filter(a -> a.startsWith("-")).findFirst();
      if (option.isPresent()) {
        String word = option.get().split("=", 2)[0];
        List<String> names =
            spec.options().stream()
                .flatMap(o -> java.util.Arrays.stream(o.names()))
                .filter(n -> n.startsWith("--"))
                .toList();
        err.println(
            name
                + ": unknown option "
                + printable(word)
                + "; "
                + NearestName.suggest(word, names, "its options are: ")
                + " ('"
                + name
                + " --help' lists them)");
        return ExitCode.INVALID;
      }
    }
    if (!spec.subcommands().isEmpty()
        && ex.getMessage().startsWith("Missing required subcommand")) {
      err.println(
          name
              + ": missing a command: one of "
              + String.join(
                  ", ",
                  spec.subcommands().keySet().stream().filter(n -> !"help".equals(n)).toList())
              + " ('"
              + name
              + " --help' describes them)");
      return ExitCode.INVALID;
    }
    err.println("firedrill: " + printable(ex.getMessage()));
    err.println("Try '" + name + " --help'.");
    return ExitCode.INVALID;
  }

  /** One line for a user error; the stack trace only with --verbose. */
  private static int handle(Exception ex, CommandLine line, CommandLine.ParseResult parsed) {
    PrintWriter err = line.getErr();
    boolean verbose =
        parsed.subcommands().stream().anyMatch(p -> p.hasMatchedOption("--verbose"))
            || parsed.hasMatchedOption("--verbose");
    if (ex instanceof UserError user) {
      err.println(printable(user.getMessage()));
      if (verbose && user.getCause() != null) {
        user.getCause().printStackTrace(err);
      }
      return user.exitCode();
    }
    err.println(
        "firedrill: internal error: "
            + printable(String.valueOf(ex))
            + (verbose ? "" : " (run with --verbose for the stack trace)"));
    if (verbose) {
      ex.printStackTrace(err);
    }
    return ExitCode.INVALID;
  }

  /**
   * An error for the terminal: each of its lines with control characters quoted, so a value echoed
   * from a crafted file or argument can neither send escape sequences nor forge extra lines.
   */
  static String printable(String message) {
    if (message == null) {
      return "null";
    }
    return Arrays.stream(message.split("\n", -1))
        .map(ControlChars::quote)
        .collect(Collectors.joining("\n"));
  }

  /** The Maven project's version, filtered into version.properties by the build. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      Properties properties = new Properties();
      try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
        if (in == null) {
          throw new IOException("this firedrill was built without its version.properties");
        }
        properties.load(in);
      }
      return new String[] {"firedrill " + properties.getProperty("version")};
    }
  }
}
