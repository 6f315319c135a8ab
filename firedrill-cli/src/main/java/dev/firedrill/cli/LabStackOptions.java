package dev.firedrill.cli;

import dev.firedrill.fault.WorkerLauncher;
import dev.firedrill.lab.stack.StackChoice;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Where the lab's files are, and which Prometheus and Alertmanager it runs; shared by {@code demo}
 * and {@code lab up}.
 */
final class LabStackOptions {

  @Option(
      names = "--lab-dir",
      paramLabel = "DIR",
      description =
          "The lab's prometheus.yml, alertmanager.yml and recording rules (default: the ones "
              + "bundled in firedrill, a copy of fixtures/lab).")
  Path labDir;

  @Option(
      names = "--alert-rules",
      paramLabel = "DIR",
      description =
          "The alerting rule files Prometheus loads (default: the ones bundled in firedrill, a "
              + "copy of alert-rules/).")
  Path alertRules;

  @Option(
      names = "--rate",
      paramLabel = "R",
      defaultValue = "20",
      description =
          "Requests per second the load generator offers to checkout (default: ${DEFAULT-VALUE}).")
  double rate;

  @Option(
      names = "--stack",
      paramLabel = "auto|real|embedded",
      defaultValue = "auto",
      description =
          "Which Prometheus and Alertmanager run: auto, the real binaries where they are on the PATH and "
              + "firedrill's embedded ones elsewhere; real, the binaries or nothing; embedded, Java alone "
              + "(default: ${DEFAULT-VALUE}).")
  String stack;

  @Option(
      names = "--compat",
      paramLabel = "2|3",
      defaultValue = "3",
      description =
          CompatOption.DESCRIPTION
              + ", when the stack's Prometheus is the embedded one; a real binary answers as its"
              + " own version (default: ${DEFAULT-VALUE}).")
  int compat;

  /**
   * The lab directory and the alert rules directory: the ones given, else the bundled ones written
   * into {@code dir}/config, so no command depends on its working directory.
   */
  Configs configs(Path dir) {
    if (labDir != null && alertRules != null) {
      return new Configs(labDir, alertRules);
    }
    Path bundled = Bundled.extractLab(dir.resolve("config"));
    return new Configs(
        labDir != null ? labDir : bundled.resolve(Bundled.LAB_DIR),
        alertRules != null ? alertRules : bundled.resolve("alert-rules"));
  }

  record Configs(Path labDir, Path alertRules) {}

  /**
   * The Prometheus and Alertmanager {@code command} runs, by {@code --stack} and this process's
   * PATH.
   */
  StackChoice stack(String command) {
    StackChoice.Mode mode =
        switch (stack) {
          case "auto" -> StackChoice.Mode.AUTO;
          case "real" -> StackChoice.Mode.REAL;
          case "embedded" -> StackChoice.Mode.EMBEDDED;
          default ->
              throw new UserError(
                  "firedrill "
                      + command
                      + ": --stack "
                      + stack
                      + " is not usable (expected auto, real or embedded)",
                  ExitCode.INVALID);
        };
    int major = CompatOption.parse(command, compat).major();
    try {
      return StackChoice.choose(mode, System.getenv(), firedrillCommand(), major);
    } catch (IllegalArgumentException e) {
      throw LabOptions.refused(command, e);
    }
  }

  /** How the lab starts its own JVM components: this installation's java and classes. */
  static List<String> firedrillCommand() {
    return WorkerLauncher.current()
        .command(
            List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
            Main.class,
            List.of());
  }
}
