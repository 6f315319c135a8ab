package dev.firedrill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
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
import dev.firedrill.testing.EachPair;
import dev.firedrill.testing.FiredrillChild;
import dev.firedrill.testing.FiredrillJar;
import dev.firedrill.testing.PaymentsOutageDrill;
import dev.firedrill.testing.RealLab;
import dev.firedrill.testing.RealVictoriaMetrics;
import dev.firedrill.testing.Stacks;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Precision of firedrill's time to detect and time to notify against the lab's own ground truth,
 * over {@code -Ddrills=N} (20) drills on the real lab (1 s scrape and evaluation, Alertmanager
 * group_wait 1 s at {@code --log.level=debug}, firedrill's webhook receiver), with {@code
 * -Dbackend=prometheus} (the default: the lab's Prometheus, once on each {@link Stacks} pair, 2.42
 * + 0.25 then 3.x + 0.3x, or on one with {@code -Dpair=stable|current}) or {@code
 * -Dbackend=victoria-metrics} ({@link RealVictoriaMetrics}: victoria-metrics, vmalert, and vmauth
 * with basic auth in front, and the stable Alertmanager that harness starts). One report per run,
 * named by backend and pair. Each drill is a real {@code firedrill run} in a JVM of its own:
 * payments answers 503 to every request for a few seconds, and {@code
 * CheckoutErrorBudgetBurn{service="checkout"}} must page team-checkout.
 *
 * <ul>
 *   <li>time to detect: the journal's {@code time_to_detect_s} (webhook startsAt − injected_at)
 *       against Alertmanager's own startsAt for the alert ({@code /api/v2/alerts}, polled during
 *       the drill) − the journal's {@code injected_at}; expected equal up to millisecond
 *       truncation.
 *   <li>against the rule evaluator's own record: the alert's {@code activeAt} in {@code
 *       /api/v1/alerts} of Prometheus or vmalert (polled during the drill) − {@code injected_at};
 *       the rule has no {@code for}, so activeAt is the evaluation that fired it.
 *   <li>time to notify: the journal's {@code time_to_notify_s} (webhook received − startsAt)
 *       against Alertmanager's log: the "Notify success" line of the alert's group (debug level),
 *       minus startsAt. The difference is the receive lag (negative: Alertmanager logs success
 *       after the receiver has answered). The log is read as the Alertmanager that wrote it logs
 *       ({@link AmLog}: 0.25's or 0.3x's), whichever the backend started.
 * </ul>
 *
 * Figures only: nothing about time is asserted.
 */
class DetectionPrecisionBenchmark {

  static final int DRILLS = Integer.getInteger("drills", 20);
  static final String BACKEND = System.getProperty("backend", "prometheus");
  static final String PAIR = System.getProperty("pair", "");
  static final int DRILLS_PER_SWEEP = 20;
  static final Duration SCRAPE = Duration.ofSeconds(1);
  static final Duration AM_POLL = Duration.ofMillis(200);
  static final String ALERT = "CheckoutErrorBudgetBurn";
  static final Map<String, String> MATCH = Map.of("alertname", ALERT, "service", "checkout");
  static final ObjectMapper JSON = new ObjectMapper();

  /**
   * {@code msg="Starting Alertmanager" version="(version=0.25.0, branch=...)"}, in either log
   * format.
   */
  private static final Pattern AM_VERSION =
      Pattern.compile("msg=\"Starting Alertmanager\".*\\(version=([^,)]+)");

  @TempDir Path dir;

  /** Where the drills run: the lab and its evaluator, and how an experiment reaches it. */
  record Backend(
      String description,
      LabStack lab,
      LabPorts ports,
      URI alertsApi,
      UnaryOperator<String> experiment,
      Map<String, String> environment,
      AutoCloseable stack) {

    static final Duration LOAD = Duration.ofMinutes(30);

    static Backend prometheus(Stacks.Pair pair, List<String> firedrill) throws Exception {
      RealLab real = RealLab.start(pair, "precision", firedrill, LOAD, "debug");
      return new Backend(
          "real " + pair.prometheus() + " (1 s scrape and evaluation)",
          real.stack(),
          real.ports(),
          real.stack().prometheusUrl(),
          real.ports()::rewrite,
          Map.of(),
          real);
    }

    static Backend victoriaMetrics(List<String> firedrill) throws Exception {
      RealVictoriaMetrics vm = RealVictoriaMetrics.start("precision", firedrill, LOAD, "debug");
      return new Backend(
          "victoria-metrics 1 s scrape, vmalert 1 s evaluation (-rule.evalDelay=0s,"
              + " -search.latencyOffset=0s), vmauth with basic auth in front",
          vm.lab(),
          vm.ports(),
          vm.vmalert(),
          vm::experiment,
          vm.environment(),
          vm);
    }
  }

  /** One run of the benchmark: its report's name and how its backend starts. */
  record Lab(String name, Start start) {
    @Override
    public String toString() {
      return name;
    }
  }

  @FunctionalInterface
  interface Start {
    Backend start(List<String> firedrill) throws Exception;
  }

  /**
   * The runs {@code -Dbackend} and {@code -Dpair} ask for. Each pair is looked up only when its run
   * starts, so a missing Prometheus 3 skips (or with {@code CI=true} fails) its run alone.
   * RealVictoriaMetrics starts the stable Alertmanager (0.25), hence its run's name.
   */
  static Stream<Named<Lab>> labs() {
    return switch (BACKEND) {
      case "prometheus" -> {
        // EachPair lists the stable pair first.
        List<Named<Supplier<Stacks.Pair>>> pairs = EachPair.pairs().toList();
        Stream<Named<Supplier<Stacks.Pair>>> chosen =
            switch (PAIR) {
              case "" -> pairs.stream();
              case "stable" -> Stream.of(pairs.get(0));
              case "current" -> Stream.of(pairs.get(1));
              default ->
                  throw new IllegalArgumentException(
                      "-Dpair=" + PAIR + " (expected stable or current, or none for both)");
            };
        yield chosen.map(
            p ->
                lab(p.getName(), firedrill -> Backend.prometheus(p.getPayload().get(), firedrill)));
      }
      case "victoria-metrics" ->
          Stream.of(lab("victoria-metrics+alertmanager-0.25", Backend::victoriaMetrics));
      default ->
          throw new IllegalArgumentException(
              "-Dbackend=" + BACKEND + " (expected prometheus or victoria-metrics)");
    };
  }

  private static Named<Lab> lab(String name, Start start) {
    return Named.of(name, new Lab(name, start));
  }

  /**
   * How an Alertmanager's debug log says what it flushed and sent: 0.25 logs go-kit logfmt with
   * {@code ts=}, lists each alert with its state in a flush line ({@code [fingerprint][active]})
   * and names only the receiver in a success line, so a success belongs to the closest preceding
   * flush; 0.3x logs slog with {@code time=}, names the group in both lines and no alert's state.
   */
  enum AmLog {
    GO_KIT("^ts=(\\S+)"),
    SLOG("^time=(\\S+)");

    private final Pattern time;

    AmLog(String time) {
      this.time = Pattern.compile(time);
    }

    /** From the log's first line (both versions start with "Starting Alertmanager"). */
    static AmLog of(Path log) throws IOException {
      String first = readFrom(log, 0).stream().findFirst().orElse("");
      return first.startsWith("time=") ? SLOG : GO_KIT;
    }

    /** Whether flush lines say which alerts are active and which resolved. */
    boolean statesAlerts() {
      return this == GO_KIT;
    }

    /**
     * A "Notify success" to team-checkout for the alert's group, given the last team-checkout
     * flush.
     */
    boolean success(String line, String lastFlush) {
      if (!line.contains("msg=\"Notify success\"") || !line.contains("receiver=team-checkout")) {
        return false;
      }
      return this == SLOG ? ours(line) : ours(lastFlush);
    }

    /**
     * A flush of the alert's group with the alert active; 0.3x says no state, so any flush of it.
     */
    boolean active(String flushLine) {
      return ours(flushLine) && (!statesAlerts() || flushLine.contains("][active]"));
    }

    Instant time(String line) {
      Matcher m = time.matcher(line);
      return m.find() ? Instant.parse(m.group(1)) : null;
    }
  }

  record Drill(
      int number,
      long delayMs,
      int exit,
      String verdict,
      String detectSource,
      double ttdS,
      double floorS,
      double notifyS,
      Instant injectedAt,
      Instant amStartsAt,
      int amStartsAtSeen,
      Instant flushAt,
      Instant successAt,
      Instant ruleActiveAt,
      String note) {

    /** Alertmanager's startsAt − injected_at, in ms (not truncated). */
    double amTtdMs() {
      return amStartsAt == null
          ? Double.NaN
          : Duration.between(injectedAt, amStartsAt).toNanos() / 1e6;
    }

    double ttdDiffMs() {
      return ttdS * 1000 - amTtdMs();
    }

    /** The evaluator's activeAt − injected_at, in ms. */
    double ruleTtdMs() {
      return ruleActiveAt == null
          ? Double.NaN
          : Duration.between(injectedAt, ruleActiveAt).toNanos() / 1e6;
    }

    double ruleDiffMs() {
      return ttdS * 1000 - ruleTtdMs();
    }

    double amFlushMs() {
      return flushAt == null || amStartsAt == null
          ? Double.NaN
          : Duration.between(amStartsAt, flushAt).toNanos() / 1e6;
    }

    double amSentMs() {
      return successAt == null || amStartsAt == null
          ? Double.NaN
          : Duration.between(amStartsAt, successAt).toNanos() / 1e6;
    }

    /** firedrill's notify − (Alertmanager's send time − startsAt): the receive lag. */
    double notifyDiffMs() {
      return notifyS * 1000 - amSentMs();
    }
  }

  @ParameterizedTest
  @MethodSource("labs")
  void detectionPrecision(Lab run) throws Exception {
    String loadBefore = loadavg();
    List<String> firedrill =
        WorkerLauncher.current()
            .command(
                List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
                Main.class,
                List.of());
    List<Drill> drills = new ArrayList<>();
    Backend backend = run.start().start(firedrill);
    String amVersion;
    String phase;
    try (AutoCloseable stack = backend.stack()) {
      LabStack lab = backend.lab();
      Path amLog =
          lab.components().stream()
              .filter(c -> c.name().equals("alertmanager"))
              .findFirst()
              .orElseThrow()
              .log();
      amLogFormat = AmLog.of(amLog);
      amVersion = alertmanagerVersion(amLog);
      AlertmanagerClient am =
          new AlertmanagerClient(lab.alertmanagerUrl(), Duration.ofSeconds(2), Optional.empty());
      HttpPrometheusClient rules =
          new HttpPrometheusClient(backend.alertsApi(), Duration.ofSeconds(2), Optional.empty());
      phase = evaluationPhase(rules);
      for (int i = 1; i <= DRILLS; i++) {
        drills.add(drill(i, backend, rules, am, amLog));
        Drill d = drills.get(drills.size() - 1);
        System.out.printf(
            "%s drill %d: %s ttd %.3f notify %.3f ttd diff %.3f ms (rule %.3f ms) notify diff %.3f ms %s%n",
            run,
            i,
            d.verdict(),
            d.ttdS(),
            d.notifyS(),
            d.ttdDiffMs(),
            d.ruleDiffMs(),
            d.notifyDiffMs(),
            d.note());
      }
      // Alertmanager's own record, kept beside the figures for a second look.
      Files.createDirectories(Path.of(System.getProperty("basedir", ".")).resolve("target/bench"));
      Files.copy(
          amLog,
          Path.of(System.getProperty("basedir", "."))
              .resolve("target/bench/" + reportName(run) + "-alertmanager.log"),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    String loadAfter = loadavg();
    report(run, backend, amVersion, amLogFormat, phase, drills, loadBefore, loadAfter);
  }

  private long previousDrillLog = -1;
  private AmLog amLogFormat = AmLog.GO_KIT;

  /** The version the Alertmanager's first log line gives ("unknown" if it gives none). */
  private static String alertmanagerVersion(Path amLog) throws IOException {
    for (String line : readFrom(amLog, 0)) {
      Matcher m = AM_VERSION.matcher(line);
      if (m.find()) {
        return m.group(1);
      }
    }
    return "unknown";
  }

  /**
   * How long after the recording group's evaluation the alert group evaluates (mod 1 s): the page
   * waits that long for each new rate30s value. Prometheus hashes each group's phase from its
   * file's path, which is in the lab's temp folder, so it differs from lab to lab; a lab's drills
   * share it, so it is reported beside the figures.
   */
  private static String evaluationPhase(HttpPrometheusClient rules) throws Exception {
    Instant recorded = null;
    Instant alerted = null;
    List<RuleGroup> groups;
    try {
      groups = rules.rules();
    } catch (PrometheusException e) {
      return "unknown (" + e.getMessage() + ")";
    }
    for (RuleGroup group : groups) {
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
    return Math.floorMod(Duration.between(recorded, alerted).toMillis(), 1000L) + " ms";
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
    sink.createContext(
        "/",
        exchange -> {
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

  private Drill drill(
      int number, Backend backend, HttpPrometheusClient rules, AlertmanagerClient am, Path amLog)
      throws Exception {
    LabPorts ports = backend.ports();
    boolean resolvedNotified;
    startSink(ports);
    try {
      quiet(rules);
      resolvedNotified =
          previousDrillLog < 0 || awaitResolvedNotification(amLog, amLogFormat, previousDrillLog);
    } finally {
      stopSink();
    }
    long delay = startDelay(number).toMillis();
    Thread.sleep(delay);
    long logOffset = Files.size(amLog);
    previousDrillLog = logOffset;
    String id = "precision-" + number;
    Path file =
        Files.writeString(
            dir.resolve(id + ".yaml"),
            backend
                .experiment()
                .apply(
                    PaymentsOutageDrill.experiment(
                        id,
                        "Payments answering 503 pages checkout's team (precision benchmark)",
                        PaymentsOutageDrill.PAGE,
                        Duration.ofSeconds(5))));
    Path journal = dir.resolve(id + ".json");
    CompletableFuture<FiredrillJar.Run> run =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return FiredrillChild.run(
                    dir,
                    backend.environment(),
                    Duration.ofMinutes(3),
                    "run",
                    file.toString(),
                    "--journal",
                    journal.toString());
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
              }
            });
    // Alertmanager's own startsAt and the evaluator's activeAt for the alert, every distinct value
    // seen while the drill runs.
    TreeSet<Instant> startsAts = new TreeSet<>();
    TreeSet<Instant> activeAts = new TreeSet<>();
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
      try {
        for (PrometheusAlert alert : rules.alerts()) {
          if (matches(alert.labels()) && alert.state().equals("firing")) {
            alert.activeAt().ifPresent(activeAts::add);
          }
        }
      } catch (PrometheusException e) {
        amErrors.add(e.getMessage());
      }
      Thread.sleep(AM_POLL.toMillis());
    }
    FiredrillJar.Run finished = run.get(10, TimeUnit.SECONDS);
    int exit = finished.exit();
    String output = finished.output();
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
      notes.add(
          "detection "
              + done.path("detection").path("verdict").asText()
              + ": "
              + done.path("detection").path("reason").asText());
    }
    Instant amStartsAt =
        startsAts.stream().filter(s -> !s.isBefore(injectedAt)).findFirst().orElse(null);
    if (amStartsAt == null) {
      notes.add(
          "Alertmanager never showed the alert after injection (seen: "
              + startsAts
              + ", errors: "
              + amErrors
              + ")");
    }
    long after = startsAts.stream().filter(s -> !s.isBefore(injectedAt)).count();
    // Whole seconds on vmalert (its evaluation time, aligned to the group's interval): the first
    // one from the drill's second on.
    Instant ruleActiveAt =
        activeAts.stream()
            .filter(s -> !s.isBefore(injectedAt.truncatedTo(ChronoUnit.SECONDS)))
            .findFirst()
            .orElse(null);
    Instant[] notify = notifyTimes(amLog, amLogFormat, logOffset, notes);
    if (!amErrors.isEmpty()) {
      notes.add(amErrors.size() + " failed Alertmanager reads");
    }
    return new Drill(
        number,
        delay,
        exit,
        done.path("verdict").asText("?"),
        row.path("detect_source").asText(),
        row.path("time_to_detect_s").asDouble(Double.NaN),
        row.path("floor_s").asDouble(Double.NaN),
        row.path("time_to_notify_s").asDouble(Double.NaN),
        injectedAt,
        amStartsAt,
        (int) after,
        notify[0],
        notify[1],
        ruleActiveAt,
        String.join("; ", notes));
  }

  /**
   * From Alertmanager's log since the drill began: the "Notify success" to team-checkout for the
   * alert's group (0.25: the one whose closest preceding team-checkout flush is the group with the
   * alert active; flushes are logged just before the send, and the lab's other team-checkout groups
   * flush at other phases), and the group's flush before it. A flush of the group with the alert
   * active that sends nothing (deduplicated by the notification log) is noted where the log says so
   * (0.25; 0.3x also flushes the group while it holds the previous drill's resolved alert, which is
   * no silent send). Retries briefly: Alertmanager logs success only once the receiver has
   * answered.
   */
  private static Instant[] notifyTimes(Path amLog, AmLog format, long offset, List<String> notes)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (true) {
      String lastFlush = null;
      String ourFlush = null;
      int silentFlushes = 0;
      Instant flush = null;
      Instant success = null;
      for (String line : readFrom(amLog, offset)) {
        if (checkoutFlush(line)) {
          if (ours(line)) {
            if (format.statesAlerts() && format.active(ourFlush)) {
              silentFlushes++;
            }
            ourFlush = line;
          }
          lastFlush = line;
        } else if (format.success(line, lastFlush)) {
          if (format.active(ourFlush)) {
            flush = format.time(ourFlush);
            success = format.time(line);
            break;
          }
          ourFlush = null;
        }
      }
      if (success != null || System.nanoTime() - deadline > 0) {
        if (silentFlushes > 0) {
          notes.add(
              silentFlushes + " flush(es) of the firing alert's group sent nothing (deduplicated)");
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
  private static boolean ours(String line) {
    return line != null && line.contains("alertname=\\\"" + ALERT + "\\\"");
  }

  /** A flush of one of team-checkout's groups. */
  private static boolean checkoutFlush(String line) {
    return line.contains("msg=flushing") && line.contains("team=\\\"checkout\\\"");
  }

  /**
   * Until Alertmanager has notified team-checkout of the alert's resolution (since {@code offset}):
   * a resolve followed by a refire within one group_interval is never notified, so the next drill
   * would get no firing notification at all. Returns whether it was seen within the timeout.
   */
  private static boolean awaitResolvedNotification(Path amLog, AmLog format, long offset)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() - deadline < 0) {
      String lastFlush = null;
      String ourFlush = null;
      int successes = 0;
      for (String line : readFrom(amLog, offset)) {
        if (checkoutFlush(line)) {
          lastFlush = line;
          ourFlush = ours(line) ? line : ourFlush;
        } else if (format.success(line, lastFlush) && ourFlush != null) {
          successes++;
          // 0.3x says no state: the drill's firing notification comes first, its resolve second.
          if (format.statesAlerts() ? ourFlush.contains("][resolved]") : successes >= 2) {
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

  private static boolean matches(Map<String, String> labels) {
    return MATCH.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
  }

  /** The previous drill's alerts resolved in the evaluator (Prometheus or vmalert). */
  private static void quiet(HttpPrometheusClient prom) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    List<String> names =
        List.of("CheckoutErrorBudgetBurn", "CheckoutOrdersPending", "CheckoutLatencyHigh");
    while (true) {
      List<PrometheusAlert> active;
      try {
        active =
            prom.alerts().stream()
                .filter(a -> names.contains(a.labels().get("alertname")))
                .toList();
      } catch (PrometheusException e) {
        active = null;
      }
      if (active != null && active.isEmpty()) {
        return;
      }
      assertThat(System.nanoTime() - deadline)
          .as("alerts still active before the drill: %s", active)
          .isNegative();
      Thread.sleep(SCRAPE.toMillis());
    }
  }

  /**
   * 0, 50, ..., 950 ms in a fixed shuffled order (7 and 20 are coprime), so 20 drills cover a
   * scrape interval.
   */
  static Duration startDelay(int number) {
    return SCRAPE.dividedBy(DRILLS_PER_SWEEP).multipliedBy((number * 7L) % DRILLS_PER_SWEEP);
  }

  /** {@code DetectionPrecisionBenchmark-prometheus-2.42+alertmanager-0.25} and the like. */
  private static String reportName(Lab run) {
    return "DetectionPrecisionBenchmark-" + run.name();
  }

  private static void report(
      Lab run,
      Backend backend,
      String amVersion,
      AmLog amLogFormat,
      String phase,
      List<Drill> drills,
      String loadBefore,
      String loadAfter) {
    BenchReport report = new BenchReport(reportName(run));
    report.line(
        "lab: "
            + backend.description()
            + " and alertmanager "
            + amVersion
            + " (group_wait 1 s,"
            + " --log.level=debug), firedrill's webhook receiver; load 20 req/s on checkout; between drills a stand-in"
            + " answers 200 on the receiver's port so Alertmanager's resolved notification is delivered");
    report.line(
        "drill: firedrill run (a JVM of its own), http-error 503 100%% on the payments proxy for 5 s, expecting"
            + " %s{service=\"checkout\"} -> team-checkout within 20 s",
        ALERT);
    report.line(
        "start: after the alert is resolved in the evaluator (Prometheus or vmalert) and Alertmanager has notified team-checkout of the"
            + " resolve (a refire within one group_interval of an un-notified resolve is never notified), each drill waits 0 to 950 ms more (50 ms steps,"
            + " shuffled; column delay) so its polls fall at every phase against scrapes and evaluations");
    report.line(
        "TTD: journal time_to_detect_s (webhook startsAt - injected_at, truncated to ms) vs Alertmanager"
            + " /api/v2/alerts startsAt (ms) - journal injected_at");
    report.line(
        "rule: the evaluator's /api/v1/alerts activeAt (no for: the firing evaluation) - journal injected_at");
    report.line(
        "notify: journal time_to_notify_s (webhook received - startsAt) vs Alertmanager log"
            + " 'Notify success' ts (ms) - startsAt; flush = the log's 'flushing' of the alert's group");
    report.line("");
    report.line(
        "%-5s %-8s %5s %-16s %7s %7s %10s %8s %11s %8s %8s %9s %9s %9s  %s",
        "drill",
        "verdict",
        "delay",
        "source",
        "floor s",
        "TTD s",
        "AM TTD ms",
        "diff ms",
        "rule TTD ms",
        "diff ms",
        "notify s",
        "AM flush",
        "AM sent",
        "lag ms",
        "note");
    for (Drill d : drills) {
      report.line(
          "%-5d %-8s %5d %-16s %7.3f %7.3f %10.3f %8.3f %11.3f %8.3f %8.3f %9.3f %9.3f %9.3f  %s",
          d.number(),
          d.verdict(),
          d.delayMs(),
          d.detectSource(),
          d.floorS(),
          d.ttdS(),
          d.amTtdMs(),
          d.ttdDiffMs(),
          d.ruleTtdMs(),
          d.ruleDiffMs(),
          d.notifyS(),
          d.amFlushMs() / 1000,
          d.amSentMs() / 1000,
          d.notifyDiffMs(),
          d.note());
    }
    report.line(
        "(AM flush, AM sent: seconds after Alertmanager's startsAt; lag ms = notify s*1000 - AM sent ms)");
    List<Double> ttdDiff = finite(drills.stream().map(Drill::ttdDiffMs).toList());
    List<Double> ruleDiff = finite(drills.stream().map(Drill::ruleDiffMs).toList());
    List<Double> notifyDiff = finite(drills.stream().map(Drill::notifyDiffMs).toList());
    List<Double> ttd = finite(drills.stream().map(Drill::ttdS).toList());
    List<Double> notify = finite(drills.stream().map(Drill::notifyS).toList());
    List<Double> sent = finite(drills.stream().map(d -> d.amSentMs() / 1000).toList());
    List<Double> flushToSent =
        finite(drills.stream().map(d -> (d.amSentMs() - d.amFlushMs())).toList());
    List<Double> floors = finite(drills.stream().map(Drill::floorS).toList());
    List<Double> overFloor = finite(drills.stream().map(d -> d.ttdS() - d.floorS()).toList());
    report.line("");
    report.line(
        "drills: %d; verdicts: %s; detect sources: %s",
        drills.size(),
        drills.stream().map(Drill::verdict).distinct().toList(),
        drills.stream().map(Drill::detectSource).distinct().toList());
    report.line(
        "TTD diff (firedrill - AM ground truth): median %.3f ms, max |diff| %.3f ms, min %.3f ms, max %.3f ms (n=%d)",
        med(ttdDiff),
        maxAbs(ttdDiff),
        BenchReport.min(ttdDiff),
        BenchReport.max(ttdDiff),
        ttdDiff.size());
    report.line(
        "TTD diff (firedrill - the evaluator's activeAt): median %.3f ms, max |diff| %.3f ms, min %.3f ms,"
            + " max %.3f ms (n=%d)",
        med(ruleDiff),
        maxAbs(ruleDiff),
        BenchReport.min(ruleDiff),
        BenchReport.max(ruleDiff),
        ruleDiff.size());
    report.line(
        "notify lag (firedrill notify - (AM sent - startsAt)): median %.3f ms, max %.3f ms, min %.3f ms,"
            + " max |lag| %.3f ms (n=%d)",
        med(notifyDiff),
        BenchReport.max(notifyDiff),
        BenchReport.min(notifyDiff),
        maxAbs(notifyDiff),
        notifyDiff.size());
    report.line(
        "TTD: median %.3f s, min %.3f s, max %.3f s; floor %s s; TTD - floor: median %.3f s, max %.3f s",
        med(ttd),
        BenchReport.min(ttd),
        BenchReport.max(ttd),
        floors.stream().distinct().toList(),
        med(overFloor),
        BenchReport.max(overFloor));
    report.line(
        "notify (firedrill): median %.3f s, max %.3f s; AM sent - startsAt: median %.3f s, max %.3f s;"
            + " AM flush -> sent: median %.3f ms, max %.3f ms",
        med(notify),
        BenchReport.max(notify),
        med(sent),
        BenchReport.max(sent),
        med(flushToSent),
        BenchReport.max(flushToSent));
    report.line(
        "AM startsAt values after injection per drill: %s",
        drills.stream().map(Drill::amStartsAtSeen).distinct().toList());
    report.line("alert group evaluates %s after the recording group (one phase per lab)", phase);
    report.line(
        "alertmanager log read as %s",
        amLogFormat == AmLog.SLOG
            ? "0.3x's (slog, time=, groups named)"
            : "0.25's (go-kit, ts=, alert states in flush lines)");
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
