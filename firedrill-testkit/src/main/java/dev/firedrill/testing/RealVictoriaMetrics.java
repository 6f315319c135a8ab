package dev.firedrill.testing;

import dev.firedrill.lab.stack.LabPorts;
import dev.firedrill.lab.stack.LabStack;
import dev.firedrill.lab.stack.ManagedProcess;
import dev.firedrill.lab.stack.Runner;
import dev.firedrill.lab.stack.TempDirs;
import dev.firedrill.net.Loopback;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lab's services and Alertmanager ({@link LabStack#startWithoutPrometheus}) watched by
 * VictoriaMetrics instead of Prometheus, for a test class or a benchmark: victoria-metrics scrapes
 * the targets of {@code fixtures/lab/prometheus.yml}, vmalert evaluates {@code fixtures/lab}'s
 * recording rules and {@code alert-rules/} against it (writing the recorded series back, sending
 * alerts to the lab's Alertmanager), and vmauth stands in front of victoria-metrics with basic auth
 * for user {@value #USER} and a password made up here. Free loopback ports, a folder of its own;
 * closing it stops every process and deletes the folder.
 *
 * <p>The flags take off the delays VictoriaMetrics adds on purpose: both default to 30 s ({@code
 * -search.latencyOffset} hides the newest 30 s from queries, {@code -rule.evalDelay} evaluates 30 s
 * in the past), which would add half a minute to every time to detect, and vmalert's remote write
 * flushes every 2 s by default. What is left is VictoriaMetrics's own ingestion: a sample is served
 * 1 to 3 s after its scrape, and each recording rule that reads a recorded series waits for it
 * again, so the lab's page fires about 9 s after the fault where Prometheus takes 1 to 2 s.
 */
public final class RealVictoriaMetrics implements AutoCloseable {

  public static final String USER = "firedrill";

  /** The environment variable that carries vmauth's password to firedrill. */
  public static final String PASSWORD_ENV = "VM_PASSWORD";

  /**
   * The {@code prometheus} block of a fixture experiment, block or flow style, up to the next
   * top-level key.
   */
  private static final Pattern PROMETHEUS_BLOCK =
      Pattern.compile("(?m)^prometheus:( \\{.*\\}\\n|\\n(?:[ #].*\\n|\\n)*)");

  static final Duration READY = Duration.ofSeconds(30);

  private final LabStack lab;
  private final LabPorts ports;
  private final Path dir;
  private final String password;
  private final List<ManagedProcess> processes = new ArrayList<>();
  private URI victoriaMetrics;
  private URI vmalert;
  private URI vmauth;

  private RealVictoriaMetrics(LabStack lab, LabPorts ports, Path dir, String password) {
    this.lab = lab;
    this.ports = ports;
    this.dir = dir;
    this.password = password;
  }

  /**
   * Starts it and waits until victoria-metrics holds vmalert's recording of checkout's traffic;
   * {@code firedrill} is how the lab starts its own JVM components, {@code load} how long the load
   * runs.
   */
  public static RealVictoriaMetrics start(String name, List<String> firedrill, Duration load)
      throws Exception {
    return start(name, firedrill, load, null);
  }

  /**
   * As {@link #start(String, List, Duration)}, with Alertmanager's {@code --log.level} (its default
   * when null).
   */
  public static RealVictoriaMetrics start(
      String name, List<String> firedrill, Duration load, String alertmanagerLogLevel)
      throws Exception {
    Stacks.VictoriaMetrics binaries = Stacks.victoriaMetrics();
    Path alertmanager =
        RequiredBinary.find(
            "prometheus-alertmanager", "FIREDRILL_ALERTMANAGER", "prometheus-alertmanager");
    // The lab's fourteen ports and three more in one draw, so none is drawn twice.
    int[] p = Loopback.freePorts(17);
    LabPorts ports =
        new LabPorts(
            p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11], p[12], p[13]);
    Path dir = TempDirs.create("firedrill-" + name + "-vm-");
    LabStack lab = null;
    RealVictoriaMetrics stack = null;
    try {
      lab =
          LabStack.startWithoutPrometheus(
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
              new Runner.Binary(alertmanager),
              Clock.system(),
              line -> {});
      byte[] secret = new byte[16];
      new SecureRandom().nextBytes(secret);
      stack = new RealVictoriaMetrics(lab, ports, dir, HexFormat.of().formatHex(secret));
      stack.startVictoriaMetrics(binaries, p[14], p[15], p[16]);
      return stack;
    } catch (Exception | Error e) {
      if (stack != null) {
        stack.close();
      } else {
        if (lab != null) {
          lab.close();
        }
        TempDirs.delete(dir);
      }
      throw e;
    }
  }

  private void startVictoriaMetrics(
      Stacks.VictoriaMetrics binaries, int vmPort, int vmalertPort, int vmauthPort)
      throws IOException, InterruptedException {
    victoriaMetrics = URI.create("http://127.0.0.1:" + vmPort);
    vmalert = URI.create("http://127.0.0.1:" + vmalertPort);
    vmauth = URI.create("http://127.0.0.1:" + vmauthPort);
    // The lab's Prometheus config as it is: its rule_files and alerting sections are vmalert's
    // here,
    // and victoria-metrics skips them only when not parsing strictly.
    Path scrape =
        Files.writeString(
            dir.resolve("scrape.yml"),
            ports.rewrite(Files.readString(Path.of("fixtures/lab/prometheus.yml"))));
    start(
        "victoria-metrics",
        List.of(
            binaries.victoriaMetrics().toString(),
            "-httpListenAddr=" + victoriaMetrics.getAuthority(),
            "-storageDataPath=" + dir.resolve("victoria-metrics-data"),
            "-retentionPeriod=1d",
            "-promscrape.config=" + scrape,
            "-promscrape.config.strictParse=false",
            "-search.latencyOffset=0s",
            "-loggerLevel=WARN"),
        victoriaMetrics);
    start(
        "vmalert",
        List.of(
            binaries.vmalert().toString(),
            "-httpListenAddr=" + vmalert.getAuthority(),
            "-datasource.url=" + victoriaMetrics,
            "-remoteWrite.url=" + victoriaMetrics,
            "-remoteWrite.flushInterval=100ms",
            "-notifier.url=" + lab.alertmanagerUrl(),
            "-evaluationInterval=1s",
            "-rule.evalDelay=0s",
            "-rule=" + Path.of("fixtures/lab/recording-rules.yml").toAbsolutePath(),
            "-rule=" + Path.of("alert-rules").toAbsolutePath() + "/*.yml",
            "-loggerLevel=WARN"),
        vmalert);
    Path auth =
        Files.writeString(
            dir.resolve("vmauth.yml"),
            """
        users:
          - username: %s
            password: "%s"
            url_prefix: "%s"
        """
                .formatted(USER, password, victoriaMetrics));
    start(
        "vmauth",
        List.of(
            binaries.vmauth().toString(),
            "-httpListenAddr=" + vmauth.getAuthority(),
            "-auth.config=" + auth,
            "-loggerLevel=WARN"),
        vmauth);
    // Every series the fixture drills read, the chained recordings last: vmalert records a ratio
    // from two recorded series only once victoria-metrics serves them, about 10 s after the first
    // ones on a young stack, and a drill that measured before would end not-run on no data.
    for (String series :
        List.of(
            LabStack.TRAFFIC_QUERY + " > 0",
            "service:http_error_ratio:rate5s{service=\"checkout\"}",
            "service:http_request_duration_seconds:p99_5s{service=\"checkout\"}",
            "checkout:orders_completed:ratio5s")) {
      LabStack.awaitQuery(
          victoriaMetrics,
          series,
          Duration.ofSeconds(45),
          Clock.system(),
          dir.resolve("logs").toString());
    }
  }

  private void start(String name, List<String> command, URI url) {
    processes.add(
        ManagedProcess.start(
            name,
            command,
            dir.resolve("logs").resolve(name + ".log"),
            url.resolve("/health"),
            READY,
            false,
            Clock.system()));
  }

  public LabStack lab() {
    return lab;
  }

  public LabPorts ports() {
    return ports;
  }

  /** victoria-metrics itself, no auth: for the fixture's own checks. */
  public URI victoriaMetrics() {
    return victoriaMetrics;
  }

  public URI vmalert() {
    return vmalert;
  }

  /** vmauth in front of victoria-metrics: user {@value #USER}, {@link #password()}. */
  public URI vmauth() {
    return vmauth;
  }

  /**
   * vmauth's password for {@value #USER}: give it to firedrill only through an environment
   * variable.
   */
  public String password() {
    return password;
  }

  /**
   * A fixture experiment written for the default lab ({@code fixtures/experiments/}, {@link
   * PaymentsOutageDrill}), moved onto this stack: the lab's ports, and a {@code prometheus} block
   * that measures through vmauth with basic auth (the password from {@value #PASSWORD_ENV}) and
   * reads rules and alerts from vmalert. VictoriaMetrics's own config has no evaluation interval,
   * so the intervals are the experiment's.
   */
  public String experiment(String fixture) {
    Matcher block = PROMETHEUS_BLOCK.matcher(fixture);
    if (!block.find()) {
      throw new IllegalArgumentException(
          "no top-level prometheus block in the experiment:\n" + fixture);
    }
    String prometheus =
        """
        prometheus:
          url: %s
          timeout: 2s
          basic_auth: {username: %s, password_env: %s}
          rules_url: %s
          scrape_interval: 1s
          evaluation_interval: 1s
          query_offset: 0s

        """
            .formatted(vmauth, USER, PASSWORD_ENV, vmalert);
    return ports.rewrite(
        fixture.substring(0, block.start()) + prometheus + fixture.substring(block.end()));
  }

  /** What firedrill's environment needs for {@link #experiment}: the password. */
  public Map<String, String> environment() {
    return Map.of(PASSWORD_ENV, password);
  }

  /** Where the processes log. */
  public Path logs() {
    return dir.resolve("logs");
  }

  @Override
  public void close() {
    try {
      for (int i = processes.size() - 1; i >= 0; i--) {
        processes.get(i).close();
      }
      lab.close();
    } finally {
      TempDirs.delete(dir);
    }
  }
}
