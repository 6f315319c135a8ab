package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/** --help and -h on every command of the tree, and unknown commands. */
class HelpTest {

  /** Every command below firedrill, as its words: "validate", "rules lint", ... */
  static Stream<String> commands() {
    return Main.everyCommand(Main.commandLine()).stream()
        .map(c -> Main.path(c.getCommandSpec()))
        .distinct();
  }

  @Test
  void theTreeHoldsEveryCommandTheIssueNames() {
    assertThat(commands().toList())
        .contains(
            "validate",
            "plan",
            "measure",
            "run",
            "cleanup",
            "report",
            "demo",
            "proxy",
            "prometheus",
            "alertmanager",
            "load",
            "rules lint",
            "routes",
            "lab up",
            "lab down",
            "lab payments",
            "lab checkout",
            "history",
            "simulate",
            "completion",
            "schema",
            "init",
            "lab status",
            "suite",
            "coverage");
  }

  @ParameterizedTest
  @MethodSource("commands")
  void helpExitsZeroWithoutTheRequiredParametersAndShowsUsageOptionsAndAnExample(String command) {
    for (String flag : List.of("--help", "-h")) {
      List<String> args =
          new ArrayList<>(command.isEmpty() ? List.of() : List.of(command.split(" ")));
      args.add(flag);
      CliRun run = CliRun.of(args.toArray(String[]::new));

      assertThat(run.exit()).as(run.describe()).isZero();
      assertThat(run.err()).as(run.describe()).isEmpty();
      String name = ("firedrill " + command).strip();
      // The help command describes itself before its usage line; every other command starts with
      // it.
      assertThat(run.out().lines().filter(l -> l.startsWith("Usage: ")).findFirst().orElse(""))
          .startsWith("Usage: " + name + " ");
      assertThat(run.out()).contains("-h, --help");
      assertThat(run.out())
          .as("the example line")
          .contains("Example:\n  " + Main.EXAMPLES.get(command) + "\n");
    }
  }

  @Test
  void everyExampleFitsOneLineAndNamesItsOwnCommand() {
    commands()
        .forEach(
            command -> {
              String example = Main.EXAMPLES.get(command);
              assertThat(example).as("the example of '%s'", command).isNotNull();
              assertThat(example.length()).as(example).isLessThanOrEqualTo(Main.USAGE_WIDTH - 2);
              if (!command.isEmpty() && !"help".equals(command)) {
                assertThat(example).startsWith("firedrill " + command);
              }
            });
  }

  @Test
  void everyDeclaredDefaultIsInTheHelpAndNoUndeclaredOne() {
    for (CommandLine command : Main.everyCommand(Main.commandLine())) {
      String words = Main.path(command.getCommandSpec());
      List<String> args = new ArrayList<>(words.isEmpty() ? List.of() : List.of(words.split(" ")));
      args.add("--help");
      String help =
          CliRun.of(args.toArray(String[]::new))
              .out()
              .replaceAll("\\s+", ""); // picocli may wrap a value
      for (CommandLine.Model.OptionSpec option : command.getCommandSpec().options()) {
        if (option.defaultValue() != null) {
          assertThat(help)
              .as("%s %s", words, option.longestName())
              .contains(option.defaultValue().replaceAll("\\s+", ""));
        }
      }
    }
    assertThat(CliRun.of("load", "--help").out())
        .doesNotContain("Default: 0.0"); // a required --rate has none
    assertThat(CliRun.of("routes", "--help").out()).doesNotContain("Default: []");
  }

  @Test
  void aMistypedOptionIsNamedWithTheNearestOne() {
    CliRun run =
        CliRun.of("run", "--jurnal", "x.json", "fixtures/experiments/payments-outage.yaml");

    assertThat(run.exit()).isEqualTo(ExitCode.INVALID);
    assertThat(run.err())
        .isEqualTo(
            "firedrill run: unknown option --jurnal; did you mean \"--journal\"? ('firedrill run"
                + " --help' lists them)\n");
  }

  @Test
  void anUnknownCommandBesideHelpIsAnErrorNotTheMainHelp() {
    CliRun run = CliRun.of("quarterly", "--help");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "firedrill: unknown command \"quarterly\"; the commands are: validate, plan, measure,"
                + " run, cleanup, report, demo, proxy, prometheus, load, rules, routes, alertmanager, lab, history, simulate,"
                + " completion, schema, init, suite, coverage"
                + " ('firedrill --help' lists them)\n");
  }

  @Test
  void aMisspelledCommandNamesTheNearestOne() {
    CliRun run = CliRun.of("valdate", "x");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "firedrill: unknown command \"valdate\"; did you mean \"validate\"? ('firedrill --help' lists them)\n");
  }

  @Test
  void aMisspelledSubcommandNamesItsParent() {
    CliRun run = CliRun.of("lab", "upp", "--help");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "firedrill lab: unknown command \"upp\"; did you mean \"up\"? ('firedrill lab --help' lists them)\n");
  }

  @Test
  void aGroupWithoutItsCommandListsThem() {
    CliRun run = CliRun.of("rules");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "firedrill rules: missing a command: one of lint ('firedrill rules --help'"
                + " describes them)\n");
  }

  @Test
  void aMissingParameterPointsAtTheFullCommandsHelp() {
    CliRun run = CliRun.of("rules", "lint");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "firedrill: Missing required parameter: 'FILE|DIR'\n"
                + "Try 'firedrill rules lint --help'.\n");
  }

  @Test
  void theHelpCommandStillWorks() {
    CliRun run = CliRun.of("help", "run");

    assertThat(run.exit()).isZero();
    assertThat(run.out()).startsWith("Usage: firedrill run ");
  }

  @Test
  void theCommandLineIsBuiltFreshEachTime() {
    CommandLine first = Main.commandLine();
    CommandLine second = Main.commandLine();
    assertThat(first.getCommandSpec().usageMessage().footer())
        .isEqualTo(
            second.getCommandSpec().usageMessage().footer()); // the example is not appended twice
  }
}
