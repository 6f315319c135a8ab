package dev.firedrill.lab.stack;

import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.prometheus.QueryResult;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The whole lab on loopback: payments, the fault proxy in front of it, checkout calling payments
 * through the proxy, the open-loop load generator on checkout, and an Alertmanager and a Prometheus
 * (the real binaries or the embedded ones, see {@link StackChoice}) with the configs of {@code
 * fixtures/lab/} and the rules of {@code alert-rules/}. Prometheus scrapes payments through a
 * second fault proxy, {@code payments-metrics}, in front of payments' metrics endpoint: the one the
 * exporter-down fault acts on. Stopped in reverse order by {@link #close}, or handed over by {@link
 * #release} for {@code lab up}.
 */
public final class LabStack implements AutoCloseable {

  static final Duration COMPONENT_READY = Duration.ofSeconds(30);
  static final Duration DATA_TIMEOUT = Duration.ofSeconds(45);

  /** What the SLIs need before a drill can measure a steady state: the checkout request rate. */
  public static final String TRAFFIC_QUERY = "service:http_requests:rate5s{service=\"checkout\"}";

  /**
   * Where the lab's files are and how to run it. {@code firedrill} is the command that starts a
   * firedrill JVM ({@code java -cp ... dev.firedrill.cli.Main}); {@code experimentId}, when set,
   * goes into the load generator's baggage; {@code alertmanagerLogLevel} is Alertmanager's {@code
   * --log.level} ({@value LocalAlertmanager#DEFAULT_LOG_LEVEL} unless given).
   */
  public record Settings(
      LabPorts ports,
      Path labDir,
      Path alertRulesDir,
      Path workDir,
      List<String> firedrill,
      double loadRate,
      Duration loadDuration,
      Optional<String> experimentId,
      boolean detached,
      String alertmanagerLogLevel) {

    public Settings {
      firedrill = List.copyOf(firedrill);
      experimentId = experimentId == null ? Optional.empty() : experimentId;
      alertmanagerLogLevel =
          alertmanagerLogLevel == null ? LocalAlertmanager.DEFAULT_LOG_LEVEL : alertmanagerLogLevel;
    }

    /** With Alertmanager at its default log level. */
    public Settings(
        LabPorts ports,
        Path labDir,
        Path alertRulesDir,
        Path workDir,
        List<String> firedrill,
        double loadRate,
        Duration loadDuration,
        Optional<String> experimentId,
        boolean detached) {
      this(
          ports,
          labDir,
          alertRulesDir,
          workDir,
          firedrill,
          loadRate,
          loadDuration,
          experimentId,
          detached,
          LocalAlertmanager.DEFAULT_LOG_LEVEL);
    }
  }

  /** One started process, as {@code lab up} records it for {@code lab down}. */
  public record Component(String name, long pid, String url, Path log) {}

  private final Settings settings;
  private final Clock clock;
  private final List<ManagedProcess> processes = new ArrayList<>();
  private final List<Component> components = new ArrayList<>();
  private LocalAlertmanager alertmanager;
  private LocalPrometheus prometheus;

  private LabStack(Settings settings, Clock clock) {
    this.settings = settings;
    this.clock = clock;
  }

  /** With the real Prometheus and Alertmanager binaries. */
  public static LabStack start(
      Settings settings,
      Path prometheusBinary,
      Path alertmanagerBinary,
      Clock clock,
      Consumer<String> progress)
      throws InterruptedException {
    return start(
        settings,
        new Runner.Binary(prometheusBinary),
        new Runner.Binary(alertmanagerBinary),
        clock,
        progress);
  }

  /**
   * Starts every component and waits until Prometheus has traffic data; stops what started if one
   * fails.
   */
  public static LabStack start(
      Settings settings,
      Runner prometheusRunner,
      Runner alertmanagerRunner,
      Clock clock,
      Consumer<String> progress)
      throws InterruptedException {
    LabStack stack = new LabStack(settings, clock);
    try {
      stack.startAll(alertmanagerRunner, progress);
      stack.startPrometheus(prometheusRunner, progress);
      progress.accept(
          "waiting for Prometheus to record checkout's traffic (" + TRAFFIC_QUERY + ")");
      stack.awaitTraffic();
      return stack;
    } catch (RuntimeException | InterruptedException e) {
      stack.close();
      throw e;
    }
  }

  /**
   * The services and the Alertmanager without a Prometheus, for a stack that scrapes and evaluates
   * the lab itself from {@code fixtures/lab} (a test's VictoriaMetrics and vmalert). It does not
   * wait for data; {@link #prometheusUrl} and {@link #awaitQuery} are not available.
   */
  public static LabStack startWithoutPrometheus(
      Settings settings, Runner alertmanagerRunner, Clock clock, Consumer<String> progress) {
    LabStack stack = new LabStack(settings, clock);
    try {
      stack.startAll(alertmanagerRunner, progress);
      return stack;
    } catch (RuntimeException e) {
      stack.close();
      throw e;
    }
  }

  public List<Component> components() {
    return List.copyOf(components);
  }

  public URI prometheusUrl() {
    return requirePrometheus().url();
  }

  private LocalPrometheus requirePrometheus() {
    if (prometheus == null) {
      throw new IllegalStateException("this lab runs no Prometheus (started without one)");
    }
    return prometheus;
  }

  public URI alertmanagerUrl() {
    return alertmanager.url();
  }

  /** Leaves every process running after this JVM exits. */
  public void release() {
    processes.forEach(ManagedProcess::release);
    if (prometheus != null) {
      prometheus.release();
    }
    if (alertmanager != null) {
      alertmanager.release();
    }
  }

  @Override
  public void close() {
    if (prometheus != null) {
      prometheus.close();
    }
    if (alertmanager != null) {
      alertmanager.close();
    }
    for (int i = processes.size() - 1; i >= 0; i--) {
      processes.get(i).close();
    }
  }

  private void startAll(Runner alertmanagerRunner, Consumer<String> progress) {
    LabPorts ports = settings.ports();
    String payments = "127.0.0.1:" + ports.payments();
    startJvm(
        "payments",
        List.of(
            "lab",
            "payments",
            "--listen",
            payments,
            "--metrics",
            "127.0.0.1:" + ports.paymentsMetrics()),
        metrics(ports.paymentsMetrics()),
        "http://" + payments,
        progress);
    String proxy = "127.0.0.1:" + ports.proxy();
    startJvm(
        "proxy",
        List.of(
            "proxy",
            "--name",
            "payments",
            "--listen",
            proxy,
            "--upstream",
            "http://" + payments,
            "--admin",
            "127.0.0.1:" + ports.proxyAdmin(),
            "--metrics",
            "127.0.0.1:" + ports.proxyMetrics()),
        URI.create("http://127.0.0.1:" + ports.proxyAdmin() + "/proxies"),
        "http://127.0.0.1:" + ports.proxyAdmin(),
        progress);
    // Scrapes only: no --metrics, so this proxy's own counters do not mix with the user-traffic
    // proxy's.
    startJvm(
        "payments-metrics",
        List.of(
            "proxy",
            "--name",
            "payments-metrics",
            "--listen",
            "127.0.0.1:" + ports.paymentsMetricsProxy(),
            "--upstream",
            "http://127.0.0.1:" + ports.paymentsMetrics(),
            "--admin",
            "127.0.0.1:" + ports.metricsProxyAdmin()),
        URI.create("http://127.0.0.1:" + ports.metricsProxyAdmin() + "/proxies"),
        "http://127.0.0.1:" + ports.metricsProxyAdmin(),
        progress);
    String checkout = "127.0.0.1:" + ports.checkout();
    startJvm(
        "checkout",
        List.of(
            "lab",
            "checkout",
            "--listen",
            checkout,
            "--metrics",
            "127.0.0.1:" + ports.checkoutMetrics(),
            "--payments",
            "http://" + proxy),
        metrics(ports.checkoutMetrics()),
        "http://" + checkout,
        progress);
    List<String> load =
        new ArrayList<>(
            List.of(
                "load",
                "--url",
                "http://" + checkout + "/checkout",
                "--method",
                "POST",
                "--rate",
                Double.toString(settings.loadRate()),
                "--duration",
                settings.loadDuration().toSeconds() + "s",
                "--metrics",
                "127.0.0.1:" + ports.loadMetrics()));
    settings.experimentId().ifPresent(id -> load.addAll(List.of("--experiment-id", id)));
    startJvm(
        "load",
        load,
        metrics(ports.loadMetrics()),
        "http://127.0.0.1:" + ports.loadMetrics() + "/metrics",
        progress);

    Path amDir = directory("alertmanager");
    alertmanager =
        LocalAlertmanager.start(
            alertmanagerRunner,
            ports.alertmanager(),
            ports.rewrite(read(settings.labDir().resolve("alertmanager.yml"))),
            amDir,
            settings.detached(),
            clock,
            settings.alertmanagerLogLevel());
    components.add(
        new Component(
            "alertmanager",
            alertmanager.pid(),
            alertmanager.url().toString(),
            alertmanager.logFile()));
    progress.accept("alertmanager on " + alertmanager.url());
  }

  private void startPrometheus(Runner prometheusRunner, Consumer<String> progress) {
    Path promDir = directory("prometheus");
    prometheus =
        LocalPrometheus.start(
            prometheusRunner,
            settings.ports().prometheus(),
            prometheusConfig(promDir),
            promDir,
            settings.detached(),
            clock);
    components.add(
        new Component(
            "prometheus", prometheus.pid(), prometheus.url().toString(), prometheus.logFile()));
    progress.accept("prometheus on " + prometheus.url());
  }

  /**
   * The lab's config on this lab's ports, its rule files copied beside it so relative paths hold.
   */
  private String prometheusConfig(Path promDir) {
    try {
      // A lab started again in the same directory (lab up after lab down) gets today's rules:
      // copies replace the old ones, and rule files deleted since are not left behind.
      Files.copy(
          settings.labDir().resolve("recording-rules.yml"),
          promDir.resolve("recording-rules.yml"),
          StandardCopyOption.REPLACE_EXISTING);
      Path rules = Files.createDirectories(promDir.resolve("alert-rules"));
      try (Stream<Path> old = Files.list(rules)) {
        for (Path file : old.toList()) {
          Files.delete(file);
        }
      }
      try (Stream<Path> files = Files.list(settings.alertRulesDir())) {
        for (Path file :
            files
                .filter(f -> f.toString().endsWith(".yml") || f.toString().endsWith(".yaml"))
                .toList()) {
          Files.copy(file, rules.resolve(file.getFileName()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot copy the lab's rule files into "
              + promDir
              + ": "
              + e.getClass().getSimpleName()
              + " "
              + e.getMessage(),
          e);
    }
    return settings
        .ports()
        .rewrite(read(settings.labDir().resolve("prometheus.yml")))
        .replace("../../alert-rules/", "alert-rules/");
  }

  private void startJvm(
      String name, List<String> args, URI ready, String url, Consumer<String> progress) {
    List<String> command = new ArrayList<>(settings.firedrill());
    command.addAll(args);
    ManagedProcess process =
        ManagedProcess.start(
            name,
            command,
            settings.workDir().resolve("logs").resolve(name + ".log"),
            ready,
            COMPONENT_READY,
            settings.detached(),
            clock);
    processes.add(process);
    components.add(new Component(name, process.pid(), url, process.log()));
    progress.accept(name + " on " + url);
  }

  private void awaitTraffic() throws InterruptedException {
    awaitQuery(TRAFFIC_QUERY + " > 0", DATA_TIMEOUT);
  }

  /**
   * Waits until {@code promql} returns at least one sample (a filter such as {@code x == 0} holds),
   * or fails naming the query, its last answer and the logs.
   */
  public void awaitQuery(String promql, Duration timeout) throws InterruptedException {
    LocalPrometheus server = requirePrometheus();
    awaitQuery(
        server.url(),
        promql,
        timeout,
        clock,
        settings.workDir().resolve("logs") + " and " + server.logFile());
  }

  /**
   * As {@link #awaitQuery(String, Duration)} against any Prometheus query API at {@code url};
   * {@code logs} says where to look when it fails.
   */
  public static void awaitQuery(URI url, String promql, Duration timeout, Clock clock, String logs)
      throws InterruptedException {
    HttpPrometheusClient client =
        new HttpPrometheusClient(url, Duration.ofSeconds(2), Optional.empty());
    long deadline = clock.nanoTime() + timeout.toNanos();
    String last = "no answer";
    while (clock.nanoTime() - deadline < 0) {
      try {
        QueryResult result = client.query(promql);
        if (result instanceof QueryResult.Vector vector && !vector.samples().isEmpty()) {
          return;
        }
        last = result.toString();
      } catch (PrometheusException e) {
        last = e.getMessage();
      }
      clock.sleep(Duration.ofMillis(500));
    }
    throw new IllegalStateException(
        url
            + " did not answer "
            + promql
            + " within "
            + timeout.toSeconds()
            + "s (last: "
            + last
            + "); logs in "
            + logs);
  }

  private static URI metrics(int port) {
    return URI.create("http://127.0.0.1:" + port + "/metrics");
  }

  private Path directory(String name) {
    try {
      return Files.createDirectories(settings.workDir().resolve(name));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + settings.workDir().resolve(name), e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(
          file
              + ": cannot read the lab's config (expected the firedrill checkout's "
              + "fixtures/lab; run from the repository root or pass --lab-dir)",
          e);
    }
  }

  /** The URLs a user needs, by name, for {@code lab up}'s output. */
  public Map<String, String> urls() {
    Map<String, String> urls = new LinkedHashMap<>();
    components.forEach(c -> urls.put(c.name(), c.url()));
    return urls;
  }
}
