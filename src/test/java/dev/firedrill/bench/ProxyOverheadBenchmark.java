package dev.firedrill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.lab.net.HttpServers;
import dev.firedrill.lab.proxy.FaultProxy;
import dev.firedrill.lab.proxy.ProxyConfig;
import dev.firedrill.lab.proxy.Upstream;
import dev.firedrill.lab.service.PaymentsService;
import dev.firedrill.lab.service.PaymentsSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault proxy's overhead on loopback, with no toxic, measured by wrk (/usr/bin/wrk, run as its
 * own process from an argument list, no shell) against the same upstream directly and through the
 * proxy, in one run, for two upstreams:
 *
 * <ul>
 *   <li><b>payments</b>: the lab's demo payments service ({@link PaymentsService}, JDK HttpServer),
 *       {@code POST /pay} with a small JSON body, latency set to 0 (its default is 10 ms) and no
 *       errors: what the issue puts behind the proxy (checkout → proxy → payments);
 *   <li><b>trivial</b>: {@link Upstream}, a raw-socket server answering {@code GET /ok} with "ok"
 *       in one write: the proxy's cost against the cheapest possible upstream (the issue's
 *       original figures).
 * </ul>
 *
 * Two measures for each:
 *
 * <ul>
 *   <li><b>latency at 1000 requests/s</b>: wrk is closed-loop, so it is paced by a Lua script
 *       (wrk2-style, in wrk's LuaJIT): {@code delay()} hands each request the next slot of a fixed
 *       1 ms schedule (clock_gettime through the FFI) and returns the milliseconds until it, so the
 *       rate is 1000/s whatever the response time, with up to 10 connections in flight; late slots
 *       are caught up, not dropped. The achieved rate is printed. Like wrk, not wrk2, latency is
 *       counted from when a request is written, not from its slot (no coordinated-omission
 *       correction); at 1000/s with sub-millisecond answers the two hardly differ. p50 and p99 come
 *       from {@code --latency}; "added" is proxied minus direct.
 *   <li><b>maximum throughput</b>: wrk as fast as it goes, 32 connections; the ratio is proxied
 *       requests/s over direct requests/s.
 * </ul>
 *
 * wrk runs with one thread ({@code -t1}): it can then take at most one of the machine's cores, in
 * the direct and the proxied run alike, and the servers (upstream; proxy and upstream) get the
 * rest. With two threads on a 2-core machine the client competes with the servers for both cores
 * and the ratio says as much about the scheduler as about the proxy. Each pair of runs goes
 * direct, proxied, proxied, direct and the two of each are averaged, so a change in the machine's
 * load during the run weighs on both sides. The proxy, the upstreams and wrk share this machine;
 * the load average is printed before and after.
 *
 * Not run by surefire or failsafe by default: {@code mvn -B -q -o test -Dtest=ProxyOverheadBenchmark}.
 */
class ProxyOverheadBenchmark {

  private static final String WRK = "/usr/bin/wrk";
  private static final int PACED_RATE = 1000;
  private static final int PACED_CONNECTIONS = 10;
  private static final int PACED_SECONDS = 8;
  private static final int MAX_CONNECTIONS = 32;
  private static final int MAX_SECONDS = 5;
  private static final Pattern PERCENTILE = Pattern.compile("^\\s*(50|99)%\\s+([\\d.]+)(us|ms|s)\\s*$", Pattern.MULTILINE);
  private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+([\\d.]+)");

  @TempDir Path dir;

  /** One wrk run: p50 and p99 in milliseconds, requests per second. */
  record Run(double p50, double p99, double rate) {
    static Run mean(Run a, Run b) {
      return new Run((a.p50 + b.p50) / 2, (a.p99 + b.p99) / 2, (a.rate + b.rate) / 2);
    }
  }

  /** What to ask: path, and for a POST its body. */
  record Target(String name, String path, String method, String body) {}

  /** The figures for one upstream. */
  record Result(Target target, Run pacedDirect, Run pacedProxied, Run maxDirect, Run maxProxied) {
    double addedP50() {
      return pacedProxied.p50() - pacedDirect.p50();
    }

    double addedP99() {
      return pacedProxied.p99() - pacedDirect.p99();
    }

    double ratio() {
      return maxProxied.rate() / maxDirect.rate();
    }

    boolean met() {
      return addedP99() < 1 && ratio() >= 0.8;
    }
  }

  @Test
  void overheadOnLoopback() throws Exception {
    assertThat(Path.of(WRK)).as("wrk is needed (apt-get install wrk)").exists();
    // Before any JDK HttpServer starts in this JVM (the proxy's admin API is one): payments must not stall on Nagle.
    HttpServers.preferNoDelay();
    String loadBefore = Files.readString(Path.of("/proc/loadavg")).strip();
    List<Result> results = new ArrayList<>();
    PaymentsSettings settings = PaymentsSettings.defaults().withLatency(Duration.ZERO).withErrorRatio(0);
    try (PaymentsService payments = PaymentsService.start(settings)) {
      results.add(measure(payments.url(), new Target("payments (PaymentsService, latency 0, POST /pay)", "/pay", "POST",
          "{\"order\":\"bench-1\",\"amount\":1299,\"currency\":\"EUR\"}")));
    }
    try (Upstream trivial = new Upstream()) {
      results.add(measure(trivial.url(), new Target("trivial (raw-socket Upstream, GET /ok)", "/ok", "GET", null)));
    }
    String loadAfter = Files.readString(Path.of("/proc/loadavg")).strip();

    System.out.println("ProxyOverheadBenchmark (loopback, " + Runtime.getRuntime().availableProcessors()
        + " CPUs, no toxic, wrk -t1; loadavg before: " + loadBefore + ", after: " + loadAfter + ")");
    for (Result r : results) {
      System.out.println("  upstream " + r.target().name() + ":");
      System.out.printf(Locale.ROOT, "    paced %d req/s (wrk Lua schedule, %d connections, %d s x2): direct %.0f req/s p50 %.3f ms"
          + " p99 %.3f ms; proxied %.0f req/s p50 %.3f ms p99 %.3f ms%n", PACED_RATE, PACED_CONNECTIONS, PACED_SECONDS,
          r.pacedDirect().rate(), r.pacedDirect().p50(), r.pacedDirect().p99(),
          r.pacedProxied().rate(), r.pacedProxied().p50(), r.pacedProxied().p99());
      System.out.printf(Locale.ROOT, "    added latency at %d req/s: p50 %+.3f ms, p99 %+.3f ms (target p99 under 1 ms: %s)%n",
          PACED_RATE, r.addedP50(), r.addedP99(), r.addedP99() < 1 ? "met" : "MISSED");
      System.out.printf(Locale.ROOT, "    max throughput (%d connections, %d s x2): direct %.0f req/s, proxied %.0f req/s,"
          + " ratio %.2f (target >= 0.8: %s)%n", MAX_CONNECTIONS, MAX_SECONDS, r.maxDirect().rate(), r.maxProxied().rate(),
          r.ratio(), r.ratio() >= 0.8 ? "met" : "MISSED");
    }
    for (Result r : results) {
      System.out.println("  => " + r.target().name() + ": " + (r.met() ? "both targets met" : "targets NOT both met"));
    }
  }

  private Result measure(URI upstream, Target target) throws Exception {
    InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    try (FaultProxy proxy = FaultProxy.start(new ProxyConfig("payments", ProxyConfig.Mode.HTTP, any, upstream,
        any, Optional.empty(), Optional.empty()))) {
      URI direct = upstream.resolve(target.path());
      URI proxied = proxy.url().resolve(target.path());
      Path fast = script(target, false);
      Path paced = script(target, true);
      // Warm up (JIT) both paths at full speed.
      wrk(direct, MAX_CONNECTIONS, 3, fast);
      wrk(proxied, MAX_CONNECTIONS, 3, fast);

      Run pd1 = wrk(direct, PACED_CONNECTIONS, PACED_SECONDS, paced);
      Run pp1 = wrk(proxied, PACED_CONNECTIONS, PACED_SECONDS, paced);
      Run pp2 = wrk(proxied, PACED_CONNECTIONS, PACED_SECONDS, paced);
      Run pd2 = wrk(direct, PACED_CONNECTIONS, PACED_SECONDS, paced);
      Run md1 = wrk(direct, MAX_CONNECTIONS, MAX_SECONDS, fast);
      Run mp1 = wrk(proxied, MAX_CONNECTIONS, MAX_SECONDS, fast);
      Run mp2 = wrk(proxied, MAX_CONNECTIONS, MAX_SECONDS, fast);
      Run md2 = wrk(direct, MAX_CONNECTIONS, MAX_SECONDS, fast);
      return new Result(target, Run.mean(pd1, pd2), Run.mean(pp1, pp2), Run.mean(md1, md2), Run.mean(mp1, mp2));
    }
  }

  /** The wrk Lua script: the request (method, body) and, when paced, a 1000/s schedule in {@code delay()}. */
  private Path script(Target target, boolean paced) throws IOException {
    StringBuilder lua = new StringBuilder();
    lua.append("wrk.method = \"").append(target.method()).append("\"\n");
    if (target.body() != null) {
      lua.append("wrk.body = '").append(target.body()).append("'\n");
      lua.append("wrk.headers[\"Content-Type\"] = \"application/json\"\n");
    }
    if (paced) {
      lua.append("""
          local ffi = require("ffi")
          ffi.cdef[[
            typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
            int clock_gettime(int clk_id, bench_timespec *tp);
          ]]
          local ts = ffi.new("bench_timespec")
          local function now_ms()
            ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC
            return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6
          end
          local interval = 1000 / %d -- ms between requests, for this (only) thread
          local slot = nil
          -- Called before every request on every connection: take the next slot of the schedule and
          -- wait until it (wrk's timers have millisecond resolution). Late slots are caught up.
          function delay()
            local t = now_ms()
            if slot == nil then slot = t end
            slot = slot + interval
            local wait = slot - t
            if wait <= 0 then return 0 end
            return math.floor(wait + 0.5)
          end
          """.formatted(PACED_RATE));
    }
    return Files.writeString(Files.createTempFile(dir, paced ? "paced" : "fast", ".lua"), lua);
  }

  private Run wrk(URI url, int connections, int seconds, Path script) throws IOException, InterruptedException {
    List<String> command = List.of(WRK, "-t", "1", "-c", Integer.toString(connections), "-d", seconds + "s",
        "--latency", "-s", script.toString(), url.toString());
    Path out = Files.createTempFile(dir, "wrk", ".txt");
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    if (!process.waitFor(seconds + 30L, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("wrk did not finish: " + command);
    }
    String text = Files.readString(out);
    assertThat(process.exitValue()).as(text).isZero();
    assertThat(text).as("wrk saw no errors").doesNotContain("Socket errors").doesNotContain("Non-2xx");
    double p50 = Double.NaN;
    double p99 = Double.NaN;
    Matcher percentile = PERCENTILE.matcher(text);
    while (percentile.find()) {
      double millis = Double.parseDouble(percentile.group(2)) * switch (percentile.group(3)) {
        case "us" -> 0.001;
        case "ms" -> 1;
        default -> 1000;
      };
      if (percentile.group(1).equals("50")) {
        p50 = millis;
      } else {
        p99 = millis;
      }
    }
    Matcher rate = RATE.matcher(text);
    assertThat(rate.find()).as(text).isTrue();
    return new Run(p50, p99, Double.parseDouble(rate.group(1)));
  }
}
