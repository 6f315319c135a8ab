package dev.firedrill.cli;

import dev.firedrill.fault.WorkerLauncher;
import dev.firedrill.lab.stack.LocalAlertmanager;
import dev.firedrill.lab.stack.LocalPrometheus;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/** Where the lab's files are, and the binaries it needs; shared by {@code demo} and {@code lab up}. */
final class LabStackOptions {

  @Option(names = "--lab-dir", paramLabel = "DIR", defaultValue = "fixtures/lab",
      description = "The lab's prometheus.yml, alertmanager.yml and recording rules (default: ${DEFAULT-VALUE}).")
  Path labDir;

  @Option(names = "--alert-rules", paramLabel = "DIR", defaultValue = "alert-rules",
      description = "The alerting rule files Prometheus loads (default: ${DEFAULT-VALUE}).")
  Path alertRules;

  @Option(names = "--rate", paramLabel = "R", defaultValue = "20",
      description = "Requests per second the load generator offers to checkout (default: ${DEFAULT-VALUE}).")
  double rate;

  Path prometheus() {
    return LocalPrometheus.findBinary().orElseThrow(() -> new UserError(
        dev.firedrill.lab.stack.Binaries.missing("prometheus", "FIREDRILL_PROMETHEUS", "prometheus"), ExitCode.INVALID));
  }

  Path alertmanager() {
    return LocalAlertmanager.findBinary().orElseThrow(() -> new UserError(
        dev.firedrill.lab.stack.Binaries.missing("alertmanager", "FIREDRILL_ALERTMANAGER", "prometheus-alertmanager"),
        ExitCode.INVALID));
  }

  /** How the lab starts its own JVM components: this installation's java and classes. */
  static List<String> firedrillCommand() {
    return WorkerLauncher.current().command(List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
        Main.class, List.of());
  }
}
