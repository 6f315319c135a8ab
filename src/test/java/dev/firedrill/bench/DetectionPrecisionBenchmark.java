package dev.firedrill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.alerting.AlertmanagerAlert;
import dev.firedrill.alerting.AlertmanagerClient;
import dev.firedrill.alerting.AlertmanagerException;
import dev.firedrill.cli.Main;
import dev.firedrill.fault.WorkerLauncher;
import dev.firedrill.lab.stack.LabPorts;
import dev.firedrill.lab.stack.LabStack;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusAlert;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.prometheus.Rule;
import dev.firedrill.prometheus.RuleGroup;
import dev.firedrill.testing.PaymentsOutageDrill;
import dev.firedrill.testing.RealLab;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import com.sun.net.httpserver.HttpServer;
import java.util.function.Supplier;
import dev.firedrill.testing.Stacks;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * Precision of firedrill's time to detect and time to notify against the lab's own ground truth,
 * over {@code -Ddrills=N} (20) drills on the real lab (Prometheus 1 s scrape and evaluation,
 * Alertmanager group_wait 1 s at {@code --log.level=debug}, firedrill's webhook receiver), once on
 * each pair of {@code Stacks} (2.42 + 0.25, then 3.x + 0.3x), each with a report of its own.
 * Each drill is a real {@code firedrill run} (in-process): payments answers 503 to every request
 * for a few seconds, and {@code CheckoutErrorBudgetBurn{service="checkout"}} must page team-checkout.
 *
 * <ul>
 *   <li>time to detect: the journal's {@code time_to_detect_s} (webhook startsAt − injected_at)
 *       against Alertmanager's own startsAt for the alert ({@code /api/v2/alerts}, polled during the
 *       drill) − the journal's {@code injected_at}; expected equal up to millisecond truncation.
 *   <li>time to notify: the journal's {@code time_to_notify_s} (webhook received − startsAt) against
 *       Alertmanager's log: the "Notify success" line of the alert's group (debug level), minus
 *       startsAt. The difference is the receive lag (negative: Alertmanager logs success after the
 *       receiver has answered). 0.25 logs logfmt with {@code ts=}, lists each alert with its state
 *       in a flush line and names only the receiver in a success line, so a success belongs to the
 *       receiver's closest preceding flush; 0.3x logs {@code time=}, names the group in both lines
 *       and no alert's state.
 * </ul>
 * Figures only: nothing about time is asserted.
 */
class DetectionPrecisionBenchmark {

  static final int DRILLS = Integer.getInteger("drills", 20);
  static final int DRILLS_PER_SWEEP = 20;
  static final Duration SCRAPE = Duration.ofSeconds(1);
  static final Duration AM_POLL = Duration.ofMillis(200);
  static final String ALERT = "CheckoutErrorBudgetBurn";
  static final Map<String, String> MATCH = Map.of("alertname", ALERT, "service", "checkout");
  static final ObjectMapper JSON = new ObjectMapper();


  /**
   * {@code ts=2026-11-29T19:54:16.123Z} at the start of an Alertmanager 0.25 (go-kit logfmt) line,
   * {@code time=...} at the start of a 0.3x (slog) one.
   */
  private static final Pattern TS = Pattern.compile("^(?:ts|time)=(\\S+)");

  @TempDir Path dir;

  record Drill(int number, long delayMs, int exit, String verdict, String detectSource, double ttdS, double floorS,
      double notifyS, Instant injectedAt, Instant amStartsAt, int amStartsAtSeen, Instant flushAt, Instant successAt,
      String note) {

    /** Alertmanager's startsAt − injected_at, in ms (not truncated). */
    double amTtdMs() {
      return amStartsAt == null ? Double.NaN : Duration.between(injectedAt, amStartsAt).toNanos() / 1e6;
    }

    double ttdDiffMs() {
      return ttdS * 1000 - amTtdMs();
    }

    double amFlushMs() {
      return flushAt == null || amStartsAt == null ? Double.NaN : Duration.between(amStartsAt, flushAt).toNanos() / 1e6;
    }

    double amSentMs() {
      return successAt == null || amStartsAt == null ? Double.NaN
          : Duration.between(amStartsAt, successAt).toNanos() / 1e6;
    }

    /** firedrill's notify − (Alertmanager's send time − startsAt): the receive lag. */
    double notifyDiffMs() {
      return notifyS * 1000 - amSentMs();
    }
  }

  @ParameterizedTest
  @MethodSource("dev.firedrill.testing.EachPair#pairs")
  void detectionPrecision(Supplier<Stacks.Pair> stacks) throws Exception {
    Stacks.Pair pair = stacks.get();
    previousDrillLog = -1;
    String loadBefore = loadavg();
    List<String> firedrill = WorkerLauncher.current().command(
        List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"), Main.class, List.of());
    List<Drill> drills = new ArrayList<>();
    try (RealLab real = RealLab.start(pair, "precision", firedrill, Duration.ofMinutes(30), "debug")) {
      LabStack lab = real.stack();
      LabPorts ports = real.ports();
      Path amLog = lab.components().stream().filter(c -> c.name().equals("alertmanager")).findFirst().orElseThrow().log();
      AlertmanagerClient am = new AlertmanagerClient(lab.alertmanagerUrl(), Duration.ofSeconds(2), Optional.empty());
      HttpPrometheusClient prom = new HttpPrometheusClient(lab.prometheusUrl(), Duration.ofSeconds(2), Optional.empty());
      phase = evaluationPhase(prom);
      for (int i = 1; i <= DRILLS; i++) {
        drills.add(drill(i, ports, prom, am, amLog));
        Drill d = drills.get(drills.size() - 1);
        System.out.printf("%s drill %d: %s ttd %.3f notify %.3f ttd diff %.3f ms notify diff %.3f ms %s%n", pair, i,
            d.verdict(), d.ttdS(), d.notifyS(), d.ttdDiffMs(), d.notifyDiffMs(), d.note());
      }
      // Alertmanager's own record, kept beside the figures for a second look.
      Files.createDirectories(Path.of(System.getProperty("basedir", ".")).resolve("target/bench"));
      Files.copy(amLog, Path.of(System.getProperty("basedir", ".")).resolve("target/bench/DetectionPrecisionBenchmark-"
          + pair + "-alertmanager.log"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    String loadAfter = loadavg();
    report(pair, phase, drills, loadBefore, loadAfter);
  }

  private long previousDrillLog = -1;
  private String phase = "unknown";

  /**
   * How long after the recording group's evaluation the alert group evaluates (mod 1 s): each
   * group's phase is a hash of its file's path, which is in the lab's temp folder, so it differs
   * from lab to lab, and the page waits that long for each new rate30s value. A lab's drills share
   * it, so it is reported beside the figures.
   */
  private static String evaluationPhase(HttpPrometheusClient prom) throws Exception {
    Instant recorded = null;
    Instant alerted = null;
    for (RuleGroup group : prom.rules()) {
      for (Rule rule : group.rules()) {
        if (rule.name().equals("service:http_error_ratio:rate30s")) {
          recorded = rule.lastEvaluation().orElse(null);
        } else if (rule.name().equals(ALERT)) {
          alerted = rule.lastEvaluation().orElse(null);
        }
      }
    }
    if (recorded == null || alerted == null) {
      return "unknown (no lastEvaluation for the recording or the alerting rule)";
    }
    long ms = Math.floorMod(Duration.between(recorded, alerted).toMillis(), 1000L);
    return ms + " ms";
  }
  private HttpServer sink;

  /**
   * Between drills firedrill's receiver is down, so Alertmanager's resolved notification fails and
   * its notification log still says "firing notified": a refire in the next drill would be
   * deduplicated and never notified. A stand-in answers 200 on the receiver's port between drills,
   * as an always-on receiver would.
   */
  private void startSink(LabPorts ports) throws IOException {
    sink = HttpServer.create(new InetSocketAddress("127.0.0.1", ports.webhook()), 16);
    sink.createContext("/", exchange -> {
      exchange.getRequestBody().readAllBytes();
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    sink.start();
  }

  private void stopSink() {
    if (sink != null) {
      sink.stop(0);
      sink = null;
    }
  }

  private Drill drill(int number, LabPorts ports, HttpPrometheusClient prom, AlertmanagerClient am, Path amLog)
      throws Exception {
    boolean resolvedNotified;
    startSink(ports);
    try {
      quiet(prom);
      resolvedNotified = previousDrillLog < 0 || awaitResolvedNotification(amLog, previousDrillLog);
    } finally {
      stopSink();
    }
    long delay = startDelay(number).toMillis();
    Thread.sleep(delay);
    long logOffset = Files.size(amLog);
    previousDrillLog = logOffset;
    String id = "precision-" + number;
    Path file = Files.writeString(dir.resolve(id + ".yaml"), ports.rewrite(PaymentsOutageDrill.experiment(id,
        "Payments answering 503 pages checkout's team (precision benchmark)", PaymentsOutageDrill.PAGE,
        Duration.ofSeconds(5))));
    Path journal = dir.resolve(id + ".json");
    StringWriter output = new StringWriter();
    CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> {
      CommandLine line = Main.commandLine();
      PrintWriter writer = new PrintWriter(output, true);
      line.setOut(writer);
      line.setErr(writer);
      return line.execute("run", file.toString(), "--journal", journal.toString());
    });
    // Alertmanager's own startsAt for the alert, every distinct value seen while the drill runs.
    TreeSet<Instant> startsAts = new TreeSet<>();
    List<String> amErrors = new ArrayList<>();
    while (!run.isDone()) {
      try {
        for (AlertmanagerAlert alert : am.alerts()) {
          if (matches(alert.labels())) {
            startsAts.add(alert.startsAt());
          }
        }
      } catch (AlertmanagerException e) {
        amErrors.add(e.getMessage());
      }
      Thread.sleep(AM_POLL.toMillis());
    }
    int exit = run.get(10, TimeUnit.SECONDS);
    JsonNode done = JSON.readTree(journal.toFile());
    Instant injectedAt = Instant.parse(done.path("injected_at").asText());
    JsonNode row = null;
    for (JsonNode r : done.path("detection").path("alerts")) {
      if (r.path("alert").asText().equals(ALERT)) {
        row = r;
      }
    }
    assertThat(row).as("drill %d: no detection row; output:%n%s", number, output).isNotNull();
    List<String> notes = new ArrayList<>();
    if (!resolvedNotified) {
      notes.add("the previous drill's resolve was not notified within 30 s");
    }
    if (!done.path("detection").path("verdict").asText().equals("held")) {
      notes.add("detection " + done.path("detection").path("verdict").asText() + ": "
          + done.path("detection").path("reason").asText());
    }
    Instant amStartsAt = startsAts.stream().filter(s -> !s.isBefore(injectedAt)).findFirst().orElse(null);
    if (amStartsAt == null) {
      notes.add("Alertmanager never showed the alert after injection (seen: " + startsAts + ", errors: " + amErrors + ")");
    }
    long after = startsAts.stream().filter(s -> !s.isBefore(injectedAt)).count();
    Instant[] notify = notifyTimes(amLog, logOffset, notes);
    if (!amErrors.isEmpty()) {
      notes.add(amErrors.size() + " failed Alertmanager reads");
    }
    return new Drill(number, delay, exit, done.path("verdict").asText("?"), row.path("detect_source").asText(),
        row.path("time_to_detect_s").asDouble(Double.NaN), row.path("floor_s").asDouble(Double.NaN),
        row.path("time_to_notify_s").asDouble(Double.NaN), injectedAt, amStartsAt, (int) after, notify[0], notify[1],
        String.join("; ", notes));
  }

  /**
   * From Alertmanager's log since the drill began: the "Notify success" to team-checkout whose
   * closest preceding team-checkout flush is the alert's group with it active (flushes are logged
   * just before the send; the lab's other team-checkout groups flush at other phases), and that
   * flush. A flush of the group with the alert active that sends nothing (deduplicated by the
   * notification log) is noted. Retries briefly: Alertmanager logs success only once the receiver
   * has answered.
   */
  private static Instant[] notifyTimes(Path amLog, long offset, List<String> notes) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (true) {
      String lastFlush = null;
      String ourFlush = null;
      int silentFlushes = 0;
      Instant flush = null;
      Instant success = null;
      for (String line : readFrom(amLog, offset)) {
        if (line.contains("msg=flushing") && line.contains("team=\\\"checkout\\\"")) {
          if (ours(line)) {
            // Only 0.25 says whether a flush holds the alert active; 0.3x also flushes the group
            // while it holds the previous drill's resolved alert, which is no silent send.
            if (active(ourFlush) && ourFlush.contains("][")) {
              silentFlushes++;
            }
            ourFlush = line;
          }
          lastFlush = line;
        } else if (success(line, lastFlush)) {
          if (active(ourFlush)) {
            flush = ts(ourFlush);
            success = ts(line);
            break;
          }
          ourFlush = null;
        }
      }
      if (success != null || System.nanoTime() - deadline > 0) {
        if (silentFlushes > 0) {
          notes.add(silentFlushes + " flush(es) of the firing alert's group sent nothing (deduplicated)");
        }
        if (success == null) {
          notes.add("Alertmanager sent no firing notification for the alert to team-checkout");
        }
        return new Instant[] {flush, success};
      }
      Thread.sleep(100);
    }
  }

  /** A flush line (or a 0.3x success line) of the alert's own aggregation group. */
  private static boolean ours(String flushLine) {
    return flushLine != null && flushLine.contains("alertname=\\\"" + ALERT + "\\\"");
  }

  /**
   * A "Notify success" to team-checkout for the alert's group: one naming the group (0.3x), or one
   * naming none after a flush of the group (0.25).
   */
  private static boolean success(String line, String lastFlush) {
    if (!line.contains("msg=\"Notify success\"") || !line.contains("receiver=team-checkout")) {
      return false;
    }
    return line.contains("aggrGroup=") ? ours(line) : ours(lastFlush);
  }

  /** A flush with the alert active: 0.25 says so per alert; 0.3x says no state, and any counts. */
  private static boolean active(String flushLine) {
    return ours(flushLine) && (flushLine.contains("][active]") || !flushLine.contains("]["));
  }

  /**
   * Until Alertmanager has notified team-checkout of the alert's resolution (since {@code offset}):
   * a resolve followed by a refire within one group_interval is never notified, so the next drill
   * would get no firing notification at all. Returns whether it was seen within the timeout.
   */
  private static boolean awaitResolvedNotification(Path amLog, long offset) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() - deadline < 0) {
      String lastFlush = null;
      String ourFlush = null;
      int successes = 0;
      for (String line : readFrom(amLog, offset)) {
        if (line.contains("msg=flushing") && line.contains("team=\\\"checkout\\\"")) {
          lastFlush = line;
          ourFlush = ours(line) ? line : ourFlush;
        } else if (success(line, lastFlush) && ourFlush != null) {
          successes++;
          // 0.3x says no state: the drill's firing notification comes first, its resolve second.
          if (ourFlush.contains("][resolved]") || !ourFlush.contains("][") && successes >= 2) {
            return true;
          }
          ourFlush = null;
        }
      }
      Thread.sleep(250);
    }
    return false;
  }

  private static List<String> readFrom(Path file, long offset) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
      raf.seek(offset);
      byte[] bytes = new byte[(int) (raf.length() - offset)];
      raf.readFully(bytes);
      return new String(bytes, StandardCharsets.UTF_8).lines().toList();
    }
  }

  private static Instant ts(String line) {
    Matcher m = TS.matcher(line);
    return m.find() ? Instant.parse(m.group(1)) : null;
  }

  private static boolean matches(Map<String, String> labels) {
    return MATCH.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
  }

  /** As DetectionRealStackTest's quietLab: the previous drill's alert resolved in Prometheus. */
  private static void quiet(HttpPrometheusClient prom) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    List<String> names = List.of("CheckoutErrorBudgetBurn", "CheckoutOrdersPending", "CheckoutLatencyHigh");
    while (true) {
      List<PrometheusAlert> active;
      try {
        active = prom.alerts().stream().filter(a -> names.contains(a.labels().get("alertname"))).toList();
      } catch (PrometheusException e) {
        active = null;
      }
      if (active != null && active.isEmpty()) {
        return;
      }
      assertThat(System.nanoTime() - deadline).as("alerts still active before the drill: %s", active).isNegative();
      Thread.sleep(SCRAPE.toMillis());
    }
  }

  /** 0, 50, ..., 950 ms in a fixed shuffled order (7 and 20 are coprime), so 20 drills cover a scrape interval. */
  static Duration startDelay(int number) {
    return SCRAPE.dividedBy(DRILLS_PER_SWEEP).multipliedBy((number * 7L) % DRILLS_PER_SWEEP);
  }

  private static void report(Stacks.Pair pair, String phase, List<Drill> drills, String loadBefore, String loadAfter) {
    BenchReport report = new BenchReport("DetectionPrecisionBenchmark-" + pair);
    report.line("lab: real %s and %s (1 s scrape and evaluation; group_wait 1 s,", pair.prometheus(), pair.alertmanager());
    report.line("  --log.level=debug), firedrill's webhook receiver; load 20 req/s on checkout; between drills a stand-in"
        + " answers 200 on the receiver's port so Alertmanager's resolved notification is delivered");
    report.line("drill: firedrill run (in-process), http-error 503 100%% on the payments proxy for 5 s, expecting"
        + " %s{service=\"checkout\"} -> team-checkout within 20 s", ALERT);
    report.line("start: after the alert is resolved in Prometheus and Alertmanager has notified team-checkout of the"
        + " resolve (a refire within one group_interval of an un-notified resolve is never notified), each drill waits 0 to 950 ms more (50 ms steps,"
        + " shuffled; column delay) so its polls fall at every phase against scrapes and evaluations");
    report.line("TTD: journal time_to_detect_s (webhook startsAt - injected_at, truncated to ms) vs Alertmanager"
        + " /api/v2/alerts startsAt (ms) - journal injected_at");
    report.line("notify: journal time_to_notify_s (webhook received - startsAt) vs Alertmanager log"
        + " 'Notify success' ts (ms) - startsAt; flush = the log's 'flushing' of the alert's group");
    report.line("");
    report.line("%-5s %-8s %5s %-16s %7s %7s %10s %8s %8s %9s %9s %9s  %s", "drill", "verdict", "delay", "source",
        "floor s", "TTD s", "AM TTD ms", "diff ms", "notify s", "AM flush", "AM sent", "lag ms", "note");
    for (Drill d : drills) {
      report.line("%-5d %-8s %5d %-16s %7.3f %7.3f %10.3f %8.3f %8.3f %9.3f %9.3f %9.3f  %s", d.number(), d.verdict(),
          d.delayMs(), d.detectSource(), d.floorS(), d.ttdS(), d.amTtdMs(), d.ttdDiffMs(), d.notifyS(),
          d.amFlushMs() / 1000, d.amSentMs() / 1000, d.notifyDiffMs(), d.note());
    }
    report.line("(AM flush, AM sent: seconds after Alertmanager's startsAt; lag ms = notify s*1000 - AM sent ms)");
    List<Double> ttdDiff = finite(drills.stream().map(Drill::ttdDiffMs).toList());
    List<Double> notifyDiff = finite(drills.stream().map(Drill::notifyDiffMs).toList());
    List<Double> ttd = finite(drills.stream().map(Drill::ttdS).toList());
    List<Double> notify = finite(drills.stream().map(Drill::notifyS).toList());
    List<Double> sent = finite(drills.stream().map(d -> d.amSentMs() / 1000).toList());
    List<Double> flushToSent = finite(drills.stream().map(d -> (d.amSentMs() - d.amFlushMs())).toList());
    List<Double> floors = finite(drills.stream().map(Drill::floorS).toList());
    List<Double> overFloor = finite(drills.stream().map(d -> d.ttdS() - d.floorS()).toList());
    report.line("");
    report.line("drills: %d; verdicts: %s; detect sources: %s", drills.size(),
        drills.stream().map(Drill::verdict).distinct().toList(), drills.stream().map(Drill::detectSource).distinct().toList());
    report.line("TTD diff (firedrill - AM ground truth): median %.3f ms, max |diff| %.3f ms, min %.3f ms, max %.3f ms (n=%d)",
        med(ttdDiff), maxAbs(ttdDiff), BenchReport.min(ttdDiff), BenchReport.max(ttdDiff), ttdDiff.size());
    report.line("notify lag (firedrill notify - (AM sent - startsAt)): median %.3f ms, max %.3f ms, min %.3f ms,"
        + " max |lag| %.3f ms (n=%d)", med(notifyDiff), BenchReport.max(notifyDiff), BenchReport.min(notifyDiff),
        maxAbs(notifyDiff), notifyDiff.size());
    report.line("TTD: median %.3f s, min %.3f s, max %.3f s; floor %s s; TTD - floor: median %.3f s, max %.3f s",
        med(ttd), BenchReport.min(ttd), BenchReport.max(ttd), floors.stream().distinct().toList(), med(overFloor),
        BenchReport.max(overFloor));
    report.line("notify (firedrill): median %.3f s, max %.3f s; AM sent - startsAt: median %.3f s, max %.3f s;"
        + " AM flush -> sent: median %.3f ms, max %.3f ms", med(notify), BenchReport.max(notify), med(sent),
        BenchReport.max(sent), med(flushToSent), BenchReport.max(flushToSent));
    report.line("AM startsAt values after injection per drill: %s",
        drills.stream().map(Drill::amStartsAtSeen).distinct().toList());
    report.line("alert group evaluates %s after the recording group (one phase per lab)", phase);
    report.line("/proc/loadavg before: %s", loadBefore);
    report.line("/proc/loadavg after:  %s", loadAfter);
    report.finish();
  }

  private static List<Double> finite(List<Double> values) {
    return values.stream().filter(v -> !v.isNaN() && !v.isInfinite()).toList();
  }

  private static double med(List<Double> values) {
    return values.isEmpty() ? Double.NaN : BenchReport.median(values);
  }

  private static double maxAbs(List<Double> values) {
    return values.stream().mapToDouble(Math::abs).max().orElse(Double.NaN);
  }

  private static String loadavg() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
