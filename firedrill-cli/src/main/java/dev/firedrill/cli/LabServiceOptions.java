package dev.firedrill.cli;

import dev.firedrill.time.Durations;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Supplier;
import picocli.CommandLine.Option;

/**
 * What the lab's services ({@code lab checkout}, {@code lab payments}) share on the command line:
 * where they serve and export metrics, how long they may run, and how they run until stopped.
 */
final class LabServiceOptions {

  @Option(
      names = "--listen",
      paramLabel = "HOST:PORT",
      defaultValue = "127.0.0.1:0",
      description =
          "Where to serve the route: POST /checkout or POST /pay (default: ${DEFAULT-VALUE}, a free port).")
  String listen;

  @Option(
      names = "--metrics",
      paramLabel = "HOST:PORT",
      defaultValue = "127.0.0.1:0",
      description = "Where to serve /metrics (default: ${DEFAULT-VALUE}, a free port).")
  String metrics;

  @Option(
      names = "--lifetime",
      paramLabel = "DURATION",
      defaultValue = "24h",
      description =
          "Stop after this long even without a signal (default: ${DEFAULT-VALUE}, at most 7d).")
  String lifetime;

  InetSocketAddress listen(String command) {
    return LabOptions.address(command, "--listen", listen);
  }

  InetSocketAddress metrics(String command) {
    return LabOptions.address(command, "--metrics", metrics);
  }

  Duration lifetime(String command) {
    return LabOptions.positive(command, "--lifetime", lifetime, LabOptions.MAX_LIFETIME);
  }

  /**
   * Prints {@code started}, waits for SIGINT/SIGTERM or the end of {@code life}, and prints how it
   * stopped, followed by {@code served} (what the service did, or empty). The caller closes the
   * service.
   */
  static void serveUntilStopped(
      PrintWriter out,
      String command,
      String service,
      Duration life,
      String started,
      Supplier<String> served) {
    try (StopOnSignals stop = StopOnSignals.install(out, command)) {
      out.println(
          service
              + ": "
              + started
              + "; stops on SIGINT/SIGTERM or after "
              + Durations.format(life));
      out.flush();
      boolean signalled = stop.await(life);
      out.println(
          service
              + ": stopped ("
              + (signalled
                  ? stop.reason().orElse("signal")
                  : "lifetime " + Durations.format(life) + " ended")
              + ")"
              + served.get());
      out.flush();
    }
  }
}
