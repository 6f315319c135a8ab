package dev.firedrill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.lab.proxy.FaultProxy;
import dev.firedrill.lab.proxy.ProxyConfig;
import dev.firedrill.lab.proxy.Upstream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * The fault proxy's overhead on loopback, with no toxic, measured by wrk (/usr/bin/wrk) against
 * the same upstream directly and through the proxy, in one run:
 *
 * <ul>
 *   <li><b>latency at 1000 requests/s</b>: wrk is closed-loop, so it is paced by a Lua script whose
 *       {@code delay()} makes each of 10 connections wait 10 ms before its next request: about
 *       1000 requests/s while responses take well under a millisecond (the achieved rate is
 *       printed). wrk starts a request's clock when it writes it, so the pause is not counted.
 *       p50 and p99 come from {@code --latency}; "added" is proxied minus direct.
 *   <li><b>maximum throughput</b>: plain wrk, 2 threads, 32 connections, as fast as it goes;
 *       the ratio is proxied requests/s over direct requests/s. wrk, the proxy and the upstream
 *       share this machine's CPUs, so the ratio also says how much CPU the proxy costs.
 * </ul>
 *
 * Not run by surefire or failsafe by default: {@code mvn -B -q -o test -Dtest=ProxyOverheadBenchmark}.
 */
class ProxyOverheadBenchmark {

  private static final String WRK = "/usr/bin/wrk";
  private static final Pattern PERCENTILE = Pattern.compile("^\\s*(50|99)%\\s+([\\d.]+)(us|ms|s)\\s*$", Pattern.MULTILINE);
  private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+([\\d.]+)");

  @TempDir Path dir;

  /** One wrk run: p50 and p99 in milliseconds, requests per second. */
  record Run(double p50, double p99, double rate) {}

  @Test
  void overheadOnLoopback() throws Exception {
    assertThat(Path.of(WRK)).as("wrk is needed (apt-get install wrk)").exists();
    Path pacing = Files.writeString(dir.resolve("pace.lua"), "function delay()\n  return 10\nend\n");
    InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    try (Upstream upstream = new Upstream();
        FaultProxy proxy = FaultProxy.start(new ProxyConfig("payments", ProxyConfig.Mode.HTTP, any, upstream.url(),
            any, Optional.empty(), Optional.empty()))) {
      URI direct = upstream.url().resolve("/ok");
      URI proxied = proxy.url().resolve("/ok");
      // Warm up (JIT) both paths at full speed.
      wrk(direct, 2, 32, 3, null);
      wrk(proxied, 2, 32, 3, null);

      Run pacedDirect = wrk(direct, 2, 10, 10, pacing);
      Run pacedProxied = wrk(proxied, 2, 10, 10, pacing);
      Run maxDirect = wrk(direct, 2, 32, 8, null);
      Run maxProxied = wrk(proxied, 2, 32, 8, null);

      double addedP50 = pacedProxied.p50() - pacedDirect.p50();
      double addedP99 = pacedProxied.p99() - pacedDirect.p99();
      double ratio = maxProxied.rate() / maxDirect.rate();
      System.out.println("ProxyOverheadBenchmark (loopback, " + Runtime.getRuntime().availableProcessors() + " CPUs, no toxic)");
      System.out.printf(Locale.ROOT, "  paced (wrk Lua delay 10 ms x 10 connections): direct %.0f req/s p50 %.3f ms p99 %.3f ms;"
          + " proxied %.0f req/s p50 %.3f ms p99 %.3f ms%n", pacedDirect.rate(), pacedDirect.p50(), pacedDirect.p99(),
          pacedProxied.rate(), pacedProxied.p50(), pacedProxied.p99());
      System.out.printf(Locale.ROOT, "  added latency at ~1000 req/s: p50 %.3f ms, p99 %.3f ms (target: p99 under 1 ms: %s)%n",
          addedP50, addedP99, addedP99 < 1 ? "met" : "MISSED");
      System.out.printf(Locale.ROOT, "  max throughput (2 threads, 32 connections): direct %.0f req/s, proxied %.0f req/s,"
          + " ratio %.2f (target >= 0.8: %s)%n", maxDirect.rate(), maxProxied.rate(), ratio, ratio >= 0.8 ? "met" : "MISSED");
    }
  }

  private Run wrk(URI url, int threads, int connections, int seconds, Path script) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(WRK, "-t", Integer.toString(threads), "-c", Integer.toString(connections),
        "-d", seconds + "s", "--latency"));
    if (script != null) {
      command.addAll(List.of("-s", script.toString()));
    }
    command.add(url.toString());
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
