package dev.firedrill.bench;

import dev.firedrill.fault.WorkerLauncher;
import dev.firedrill.lab.load.LoadGenerator;
import dev.firedrill.lab.load.LoadMetrics;
import dev.firedrill.lab.load.LoadPlan;
import dev.firedrill.lab.load.LoadResult;
import dev.firedrill.lab.load.Outcome;
import dev.firedrill.testing.LoadTarget;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How closely the open-loop generator holds 1000 and 5000 requests/s for 5 s against a trivial
 * server on 127.0.0.1, and how much CPU it spends doing it. The server runs in a JVM of its own, so
 * the process CPU time measured here is the generator's (scheduler, HTTP client, metrics). Figures
 * are printed; nothing about time is asserted.
 *
 * <p>Neither surefire nor failsafe runs this class by default (its name ends in neither Test nor
 * IT): {@code mvn -B test -Dtest=LoadGeneratorBenchmark}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LoadGeneratorBenchmark {

  private static final Duration LENGTH = Duration.ofSeconds(5);

  @Test
  void accuracyAndCpuAt1000And5000PerSecond() throws IOException, InterruptedException {
    Process server = startTarget();
    try {
      URI url = URI.create("http://127.0.0.1:" + port(server) + "/");
      LoadGenerator.http(LoadPlan.of(url, 1000, Duration.ofSeconds(2)), new LoadMetrics())
          .run(); // JIT warm-up
      System.out.printf(
          Locale.ROOT,
          "%nLoadGeneratorBenchmark: %d cores, load average %.2f before the runs, %s%n",
          Runtime.getRuntime().availableProcessors(),
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
          System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
      System.out.println(
          "target/s  achieved/s  achieved/target  sent   ok     other  p50      p99      "
              + "send-lag-p99  send-lag-max  cpu-cores");
      for (double rate : List.of(1000.0, 5000.0)) {
        measure(LoadPlan.of(url, rate, LENGTH));
      }
    } finally {
      server.getOutputStream().close(); // the target exits when its stdin closes
      if (!server.waitFor(5, TimeUnit.SECONDS)) {
        server.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    }
  }

  private static void measure(LoadPlan plan) {
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpuBefore = os.getProcessCpuTime();
    long wallBefore = System.nanoTime();
    LoadResult result = LoadGenerator.http(plan, new LoadMetrics()).run();
    double wall = System.nanoTime() - wallBefore;
    double cores = (os.getProcessCpuTime() - cpuBefore) / wall;
    long other = result.sent() - result.count(Outcome.OK);
    System.out.printf(
        Locale.ROOT,
        "%-9.0f %-11.1f %-16.4f %-6d %-6d %-6d %-8s %-8s %-13s %-13s %.2f%n",
        plan.rate(),
        result.achievedRate(),
        result.achievedRate() / plan.rate(),
        result.sent(),
        result.count(Outcome.OK),
        other,
        ms(result.p50()),
        ms(result.p99()),
        ms(result.sendLagP99()),
        ms(result.sendLagMax()),
        cores);
  }

  private static String ms(Duration duration) {
    return String.format(Locale.ROOT, "%.2fms", duration.toNanos() / 1e6);
  }

  private static Process startTarget() throws IOException {
    List<String> command =
        WorkerLauncher.current().command(List.of("-Xmx256m"), LoadTarget.class, List.of());
    return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }

  private static int port(Process server) throws IOException {
    BufferedReader lines =
        new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
    String line =
        lines.readLine(); // the target prints its port first; it exits at once if it cannot start
    if (line == null || !line.startsWith("port ")) {
      throw new IllegalStateException(
          "the load target printed \"" + line + "\" (expected \"port N\")");
    }
    return Integer.parseInt(line.substring(5).trim());
  }
}
