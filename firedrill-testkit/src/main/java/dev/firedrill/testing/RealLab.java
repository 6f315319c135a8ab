package dev.firedrill.testing;

import dev.firedrill.lab.stack.LabPorts;
import dev.firedrill.lab.stack.LabStack;
import dev.firedrill.lab.stack.TempDirs;
import dev.firedrill.time.Clock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The whole lab on the real {@code prometheus} and {@code prometheus-alertmanager}, for a test
 * class or a benchmark that drills against it: free loopback ports, a folder of its own, the repo's
 * {@code fixtures/lab} and {@code alert-rules}, 20 checkouts a second. Closing it stops every
 * component and deletes the folder.
 */
public final class RealLab implements AutoCloseable {

  private final LabStack stack;
  private final LabPorts ports;
  private final Path dir;

  private RealLab(LabStack stack, LabPorts ports, Path dir) {
    this.stack = stack;
    this.ports = ports;
    this.dir = dir;
  }

  /**
   * Starts it; {@code firedrill} is how the lab starts its own JVM components (checkout, payments,
   * the proxy, the load), {@code load} how long the load runs.
   */
  public static RealLab start(
      String name, List<String> firedrill, Duration load, String alertmanagerLogLevel)
      throws Exception {
    return start(
        RequiredBinary.find("prometheus", "FIREDRILL_PROMETHEUS", "prometheus"),
        RequiredBinary.find(
            "prometheus-alertmanager", "FIREDRILL_ALERTMANAGER", "prometheus-alertmanager"),
        name,
        firedrill,
        load,
        alertmanagerLogLevel);
  }

  /**
   * As {@link #start(String, List, Duration, String)}, on the Prometheus and Alertmanager of {@code
   * pair}.
   */
  public static RealLab start(
      Stacks.Pair pair,
      String name,
      List<String> firedrill,
      Duration load,
      String alertmanagerLogLevel)
      throws Exception {
    return start(
        pair.prometheus(), pair.alertmanager(), name, firedrill, load, alertmanagerLogLevel);
  }

  private static RealLab start(
      Path prometheus,
      Path alertmanager,
      String name,
      List<String> firedrill,
      Duration load,
      String alertmanagerLogLevel)
      throws Exception {
    LabPorts ports = LabPorts.free();
    Path dir = TempDirs.create("firedrill-" + name + "-lab-");
    try {
      LabStack stack =
          LabStack.start(
              new LabStack.Settings(
                  ports,
                  Path.of("fixtures/lab"),
                  Path.of("alert-rules"),
                  dir,
                  firedrill,
                  20,
                  load,
                  Optional.empty(),
                  false,
                  alertmanagerLogLevel),
              prometheus,
              alertmanager,
              Clock.system(),
              line -> {});
      return new RealLab(stack, ports, dir);
    } catch (Exception | Error e) {
      TempDirs.delete(dir);
      throw e;
    }
  }

  /** With ten minutes of load and Alertmanager at its default log level. */
  public static RealLab start(String name, List<String> firedrill) throws Exception {
    return start(name, firedrill, Duration.ofMinutes(10), null);
  }

  /** As {@link #start(String, List)}, on the Prometheus and Alertmanager of {@code pair}. */
  public static RealLab start(Stacks.Pair pair, String name, List<String> firedrill)
      throws Exception {
    return start(pair, name, firedrill, Duration.ofMinutes(10), null);
  }

  public LabStack stack() {
    return stack;
  }

  public LabPorts ports() {
    return ports;
  }

  /** The lab's folder: its processes' logs, Prometheus's and Alertmanager's data and logs. */
  public Path dir() {
    return dir;
  }

  @Override
  public void close() {
    try {
      stack.close();
    } finally {
      TempDirs.delete(dir);
    }
  }
}
