package dev.firedrill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.OperatingSystemMXBean;
import dev.firedrill.lab.service.PaymentsService;
import dev.firedrill.lab.service.PaymentsSettings;
import dev.firedrill.net.LoopbackHttpServer;
import dev.firedrill.proxy.FaultProxy;
import dev.firedrill.proxy.ProxyConfig;
import dev.firedrill.proxy.Upstream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault proxy's overhead on loopback, with no toxic, beside nginx as a reference reverse proxy,
 * all measured by {@link Wrk} in one run against the same upstream: directly, through firedrill's
 * proxy, and through nginx. Two upstreams:
 *
 * <ul>
 *   <li><b>payments</b>: the lab's payments service ({@link PaymentsService}, JDK HttpServer),
 *       {@code POST /pay} with a small JSON body, latency 0 (its default is 10 ms) and no errors:
 *       what the issue puts behind the proxy (checkout → proxy → payments);
 *   <li><b>trivial</b>: {@link Upstream}, a raw-socket server answering {@code GET /ok} with "ok"
 *       in one write: the proxy's cost against the cheapest possible upstream.
 * </ul>
 *
 * Two measures for each:
 *
 * <ul>
 *   <li><b>latency at 1000 requests/s</b>: wrk is closed-loop, so a Lua script paces it
 *       (wrk2-style) at a fixed 1 ms schedule whatever the response time, with up to 10 connections
 *       in flight; late slots are caught up. Latency is counted from when a request is written (no
 *       coordinated-omission correction; at 1000/s with sub-millisecond answers the two hardly
 *       differ). "Added" is proxied minus direct p50 and p99.
 *   <li><b>maximum throughput</b>: wrk as fast as it goes on 32 connections; the ratio is proxied
 *       requests/s over direct requests/s. Beside it, the CPU each request cost the proxy (its
 *       threads, or nginx's processes) and the rest of this JVM (the upstream, with GC and JIT).
 * </ul>
 *
 * On a machine whose cores all run flat out in the maximum-throughput runs, the ratio measures CPU,
 * not waiting: wrk, the upstream and the proxy share the cores, and a proxy makes two reads and two
 * writes of loopback TCP per request where the upstream makes one of each. The CPU per request and
 * the reference proxy in the same run say how much of the ratio is the proxy's own doing.
 *
 * <p>wrk runs with one thread, so it takes at most one core in every run. Each measure goes direct,
 * firedrill, nginx, nginx, firedrill, direct, twice, and the four runs of each are averaged, so a
 * change in the machine's load weighs on all sides. Without nginx installed the reference is left
 * out and the report says so.
 *
 * <p>Not run by surefire or failsafe by default: {@code bin/bench ProxyOverheadBenchmark}, or
 * {@code mvn -B -q -o test -Dtest=ProxyOverheadBenchmark}.
 */
class ProxyOverheadBenchmark {

  private static final int PACED_RATE = 1000;
  private static final int PACED_CONNECTIONS = 10;
  private static final int PACED_SECONDS = 8;
  private static final int MAX_CONNECTIONS = 32;
  private static final int MAX_SECONDS = 5;
  private static final int ROUNDS = 2;
  private static final String PROXY_NAME = "bench";

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final OperatingSystemMXBean OS =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  @TempDir Path dir;

  /** CPU time so far, in nanoseconds, of what one path adds to going direct. */
  interface CpuMeter {
    long nanos() throws IOException;
  }

  /** One way to the upstream: its base URL and the CPU of the proxy on it (zero when direct). */
  record Way(String name, URI base, CpuMeter proxyCpu) {}

  /** A wrk result and what each request cost in CPU, microseconds. */
  record Measured(Wrk.Result wrk, double proxyMicros, double upstreamMicros) {
    static Measured mean(List<Measured> runs) {
      return new Measured(
          new Wrk.Result(
              mean(runs, m -> m.wrk.p50()),
              mean(runs, m -> m.wrk.p99()),
              mean(runs, m -> m.wrk.rate())),
          mean(runs, Measured::proxyMicros),
          mean(runs, Measured::upstreamMicros));
    }

    private static double mean(List<Measured> runs, ToDoubleFunction<Measured> figure) {
      return runs.stream().mapToDouble(figure).average().orElse(Double.NaN);
    }
  }

  @Test
  void overheadOnLoopback() throws Exception {
    assertThat(Wrk.BINARY).as("wrk is needed (apt-get install wrk)").exists();
    // Before any JDK HttpServer starts in this JVM (the proxy's admin API is one): payments must
    // not stall on Nagle.
    LoopbackHttpServer.preferNoDelay();
    BenchReport report = new BenchReport("ProxyOverheadBenchmark");
    report.line(
        "loopback, no toxic; wrk -t1; each figure the mean of %d runs; load average before: %s",
        2 * ROUNDS, Files.readString(Path.of("/proc/loadavg")).strip());
    Optional<String> nginxVersion = nginxVersion();
    report.line(
        "reference: %s",
        nginxVersion
            .map(v -> v + ", one worker per core, keep-alive to the upstream")
            .orElse("none (nginx not installed: apt-get install nginx-light)"));
    PaymentsSettings settings =
        PaymentsSettings.defaults().withLatency(Duration.ZERO).withErrorRatio(0);
    try (PaymentsService payments = PaymentsService.start(settings)) {
      measure(
          report,
          "payments (PaymentsService, latency 0, POST /pay)",
          payments.url(),
          nginxVersion.isPresent(),
          new Wrk.Request(
              "/pay", "POST", "{\"order\":\"bench-1\",\"amount\":1299,\"currency\":\"EUR\"}"));
    }
    try (Upstream trivial = new Upstream()) {
      measure(
          report,
          "trivial (raw-socket Upstream, GET /ok)",
          trivial.url(),
          nginxVersion.isPresent(),
          new Wrk.Request("/ok", "GET", null));
    }
    report.finish();
  }

  private void measure(
      BenchReport report, String upstreamName, URI upstream, boolean withNginx, Wrk.Request request)
      throws Exception {
    InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    try (FaultProxy proxy =
            FaultProxy.start(
                new ProxyConfig(
                    PROXY_NAME,
                    ProxyConfig.Mode.HTTP,
                    any,
                    upstream,
                    any,
                    Optional.empty(),
                    Optional.empty()));
        NginxReverseProxy nginx =
            withNginx
                ? NginxReverseProxy.start(Files.createTempDirectory(dir, "nginx"), upstream)
                : null) {
      List<Way> ways = new ArrayList<>();
      ways.add(new Way("direct", upstream, () -> 0));
      ways.add(new Way("firedrill proxy", proxy.url(), ProxyOverheadBenchmark::proxyThreadsCpu));
      if (nginx != null) {
        ways.add(new Way("nginx (reference)", nginx.url(), nginx::cpuNanos));
      }
      Wrk wrk = new Wrk(dir);
      Path fast = wrk.script(request, 0);
      Path paced = wrk.script(request, PACED_RATE);
      for (Way way : ways) { // JIT warm-up on every path
        wrk.run(way.base().resolve(request.path()), MAX_CONNECTIONS, 3, fast);
      }
      Map<Way, Measured> atRate =
          series(wrk, ways, request, PACED_CONNECTIONS, PACED_SECONDS, paced);
      Map<Way, Measured> atMax = series(wrk, ways, request, MAX_CONNECTIONS, MAX_SECONDS, fast);
      write(report, upstreamName, ways, atRate, atMax);
    }
  }

  /**
   * Every way {@code 2 * ROUNDS} times, in the order given and then reversed, round after round;
   * the mean of each way's runs.
   */
  private static Map<Way, Measured> series(
      Wrk wrk, List<Way> ways, Wrk.Request request, int connections, int seconds, Path script)
      throws Exception {
    List<Way> reversed = new ArrayList<>(ways);
    Collections.reverse(reversed);
    Map<Way, List<Measured>> runs = new LinkedHashMap<>();
    ways.forEach(way -> runs.put(way, new ArrayList<>()));
    for (int round = 0; round < ROUNDS; round++) {
      for (List<Way> order : List.of(ways, reversed)) {
        for (Way way : order) {
          runs.get(way).add(run(wrk, way, request, connections, seconds, script));
        }
      }
    }
    Map<Way, Measured> means = new LinkedHashMap<>();
    runs.forEach((way, measured) -> means.put(way, Measured.mean(measured)));
    return means;
  }

  private static Measured run(
      Wrk wrk, Way way, Wrk.Request request, int connections, int seconds, Path script)
      throws Exception {
    long proxyBefore = way.proxyCpu().nanos();
    long jvmBefore = OS.getProcessCpuTime();
    long inJvmProxyBefore = proxyThreadsCpu();
    Wrk.Result result = wrk.run(way.base().resolve(request.path()), connections, seconds, script);
    long proxy = way.proxyCpu().nanos() - proxyBefore;
    long upstream = OS.getProcessCpuTime() - jvmBefore - (proxyThreadsCpu() - inJvmProxyBefore);
    double requests = result.rate() * seconds;
    return new Measured(result, proxy / 1e3 / requests, upstream / 1e3 / requests);
  }

  /** CPU so far of firedrill's proxy threads in this JVM (its accept thread and event loops). */
  private static long proxyThreadsCpu() {
    long nanos = 0;
    for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (info != null && info.getThreadName().startsWith("firedrill-proxy-" + PROXY_NAME)) {
        nanos += Math.max(0, THREADS.getThreadCpuTime(info.getThreadId()));
      }
    }
    return nanos;
  }

  private static void write(
      BenchReport report,
      String upstreamName,
      List<Way> ways,
      Map<Way, Measured> atRate,
      Map<Way, Measured> atMax) {
    Measured direct = atRate.get(ways.get(0));
    Measured directMax = atMax.get(ways.get(0));
    report.line("upstream %s", upstreamName);
    report.line(
        "  at %d req/s (paced, %d connections, %d s):  achieved     p50 ms    p99 ms   added p50  added p99",
        PACED_RATE, PACED_CONNECTIONS, PACED_SECONDS);
    for (Way way : ways) {
      Measured m = atRate.get(way);
      String added =
          way == ways.get(0)
              ? ""
              : String.format(
                  Locale.ROOT,
                  "%+10.3f %+10.3f",
                  m.wrk().p50() - direct.wrk().p50(),
                  m.wrk().p99() - direct.wrk().p99());
      report.line(
          "    %-36s %8.0f %10.3f %10.3f  %s",
          way.name(), m.wrk().rate(), m.wrk().p50(), m.wrk().p99(), added);
    }
    report.line(
        "  maximum (%d connections, %d s):              req/s   ratio   proxy CPU/req   upstream CPU/req",
        MAX_CONNECTIONS, MAX_SECONDS);
    for (Way way : ways) {
      Measured m = atMax.get(way);
      report.line(
          "    %-36s %8.0f %7.2f %12.1f us %15.1f us",
          way.name(),
          m.wrk().rate(),
          m.wrk().rate() / directMax.wrk().rate(),
          m.proxyMicros(),
          m.upstreamMicros());
    }
    Measured firedrill = atMax.get(ways.get(1));
    double addedP99 = atRate.get(ways.get(1)).wrk().p99() - direct.wrk().p99();
    double ratio = firedrill.wrk().rate() / directMax.wrk().rate();
    report.line(
        "  => firedrill: added p99 %+.3f ms (target under 1 ms: %s); throughput ratio %.2f (target >= 0.8: %s)",
        addedP99, addedP99 < 1 ? "met" : "MISSED", ratio, ratio >= 0.8 ? "met" : "MISSED");
    if (ways.size() > 2) {
      Measured nginx = atMax.get(ways.get(2));
      report.line(
          "  => firedrill against nginx: throughput %.2fx, proxy CPU per request %.2fx",
          firedrill.wrk().rate() / nginx.wrk().rate(),
          firedrill.proxyMicros() / nginx.proxyMicros());
    }
  }

  private static Optional<String> nginxVersion() throws IOException, InterruptedException {
    if (!Files.isExecutable(NginxReverseProxy.BINARY)) {
      return Optional.empty();
    }
    Process process =
        new ProcessBuilder(NginxReverseProxy.BINARY.toString(), "-v")
            .redirectErrorStream(true)
            .start();
    String text =
        new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    process.waitFor(10, TimeUnit.SECONDS);
    return Optional.of(text.replace("nginx version: ", ""));
  }
}
