package dev.firedrill.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * wrk (/usr/bin/wrk, from Debian's package) run as its own process from an argument list, with one
 * thread ({@code -t1}): it then takes at most one of the machine's cores, in every run alike.
 */
final class Wrk {

  static final Path BINARY = Path.of("/usr/bin/wrk");
  private static final Pattern PERCENTILE =
      Pattern.compile("^\\s*(50|99)%\\s+([\\d.]+)(us|ms|s)\\s*$", Pattern.MULTILINE);
  private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+([\\d.]+)");

  /** What to ask: path, and for a POST its body. */
  record Request(String path, String method, String body) {}

  /** One run's figures: p50 and p99 in milliseconds, requests per second. */
  record Result(double p50, double p99, double rate) {}

  private final Path dir;

  Wrk(Path dir) {
    this.dir = dir;
  }

  /**
   * The Lua script for {@code request}: as fast as wrk goes, or paced at {@code pacedRate}
   * requests/s.
   */
  Path script(Request request, int pacedRate) throws IOException {
    StringBuilder lua = new StringBuilder();
    lua.append("wrk.method = \"").append(request.method()).append("\"\n");
    if (request.body() != null) {
      lua.append("wrk.body = '").append(request.body()).append("'\n");
      lua.append("wrk.headers[\"Content-Type\"] = \"application/json\"\n");
    }
    if (pacedRate > 0) {
      lua.append(
          """
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
          """
              .formatted(pacedRate));
    }
    return Files.writeString(
        Files.createTempFile(dir, pacedRate > 0 ? "paced" : "fast", ".lua"), lua);
  }

  /**
   * Runs wrk against {@code url}; fails on wrk's own failure and on any socket error or non-2xx
   * answer.
   */
  Result run(URI url, int connections, int seconds, Path script)
      throws IOException, InterruptedException {
    List<String> command =
        List.of(
            BINARY.toString(),
            "-t",
            "1",
            "-c",
            Integer.toString(connections),
            "-d",
            seconds + "s",
            "--latency",
            "-s",
            script.toString(),
            url.toString());
    Path out = Files.createTempFile(dir, "wrk", ".txt");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    if (!process.waitFor(seconds + 30L, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("wrk did not finish within " + (seconds + 30) + " s: " + command);
    }
    String text = Files.readString(out);
    if (process.exitValue() != 0 || text.contains("Socket errors") || text.contains("Non-2xx")) {
      throw new AssertionError("wrk against " + url + " failed or saw errors:\n" + text);
    }
    double p50 = Double.NaN;
    double p99 = Double.NaN;
    Matcher percentile = PERCENTILE.matcher(text);
    while (percentile.find()) {
      double millis =
          Double.parseDouble(percentile.group(2))
              * switch (percentile.group(3)) {
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
    if (!rate.find()) {
      throw new AssertionError("wrk printed no Requests/sec:\n" + text);
    }
    return new Result(p50, p99, Double.parseDouble(rate.group(1)));
  }
}
