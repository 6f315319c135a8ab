package dev.firedrill.killmatrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.fault.ProcessInfo;
import dev.firedrill.fault.ProcessTable;
import dev.firedrill.proxy.FaultProxy;
import dev.firedrill.proxy.ProxyConfig;
import dev.firedrill.testing.DemoStack;
import dev.firedrill.testing.Procs;
import dev.firedrill.testing.SyntheticService;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the trials drill against, on loopback: the demo stack (a real Prometheus scraping a
 * synthetic service, with one alert rule that never fires), firedrill's fault proxy in this JVM,
 * and a {@code sleep} decoy per process-kill trial. It writes each trial's experiment and says what
 * a trial left behind.
 */
final class MatrixLab implements AutoCloseable {

  static final String QUIET_ALERT = "KillMatrixQuiet";

  /** A rule that never fires: the drill waits for its silence until {@code within} has passed. */
  static final String RULES =
      "groups:\n"
          + "  - name: killmatrix\n"
          + "    rules:\n"
          + "      - alert: "
          + QUIET_ALERT
          + "\n"
          + "        expr: vector(1) > 2\n"
          + "        labels: {service: killmatrix}\n";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final DemoStack stack;
  private final FaultProxy proxy;

  MatrixLab(DemoStack stack) throws IOException {
    this.stack = stack;
    InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    // Nothing is sent through it: the matrix is about what a killed drill leaves on the proxy.
    this.proxy =
        FaultProxy.start(
            new ProxyConfig(
                "payments",
                ProxyConfig.Mode.HTTP,
                any,
                URI.create("http://127.0.0.1:9"),
                any,
                Optional.empty(),
                Optional.empty()));
  }

  /** One trial's own things: its decoy and its command fault's file. */
  record Props(Path dir, String id, Optional<Procs.Stat> decoy, String decoyMatch, Path made) {}

  Props props(Path dir, String id, FaultKind kind) throws IOException, InterruptedException {
    String token = Procs.uniqueSleepToken();
    Optional<Procs.Stat> decoy =
        kind == FaultKind.PROCESS_STOP ? Optional.of(Procs.startDecoy(token)) : Optional.empty();
    return new Props(dir, id, decoy, "sleep " + token, dir.resolve("made-by-" + id));
  }

  /** The experiment: fault 0 of {@code kind}, fault 1 an http-latency on the same proxy. */
  Path experiment(Props props, FaultKind kind) throws IOException {
    Map<String, Object> sli = new LinkedHashMap<>();
    sli.put("name", "error_ratio");
    sli.put("query", SyntheticService.ERROR_RATIO);
    sli.put("max", 0.5);
    Map<String, Object> alert = new LinkedHashMap<>();
    alert.put("alert", QUIET_ALERT);
    alert.put("expect", "silent");
    alert.put("within", KillMatrix.WITHIN.toMillis() + "ms");
    Map<String, Object> hypothesis = new LinkedHashMap<>();
    hypothesis.put("description", "nothing is left behind");
    hypothesis.put("recovery", KillMatrix.RECOVERY.toMillis() + "ms");
    hypothesis.put("alerts", List.of(alert));
    Map<String, Object> blast = new LinkedHashMap<>();
    blast.put("traffic_share", 1);
    blast.put("max_duration", "30s");
    blast.put("max_processes", 1);
    blast.put("max_workers", 1);
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("id", props.id());
    root.put("title", "kill matrix trial " + props.id());
    root.put("prometheus", Map.of("url", stack.prometheus().url().toString(), "timeout", "2s"));
    root.put("steady_state", Map.of("interval", "1s", "slis", List.of(sli)));
    root.put("hypothesis", hypothesis);
    root.put(
        "method",
        Map.of(
            "duration",
            KillMatrix.DURATION.toMillis() + "ms",
            "faults",
            List.of(fault(props, kind), latency())));
    root.put("abort", Map.of("rules", List.of(Map.of("sli", "error_ratio", "above", 0.9))));
    root.put("blast_radius", blast);
    Path file = props.dir().resolve(props.id() + ".json");
    JSON.writeValue(file.toFile(), root);
    return file;
  }

  private Map<String, Object> fault(Props props, FaultKind kind) {
    Map<String, Object> fault = new LinkedHashMap<>();
    fault.put("kind", kind.kind);
    switch (kind) {
      case PROCESS_STOP -> {
        fault.put("match", props.decoyMatch());
        fault.put("signal", "STOP");
      }
      case CPU_BURN -> fault.put("workers", 1);
      case HTTP_ERROR -> {
        toxic(fault);
        fault.put("share", 0.01);
        fault.put("status", 503);
      }
      case HTTP_LATENCY -> {
        toxic(fault);
        fault.put("share", 0.01);
        fault.put("latency", "50ms");
      }
      case EXPORTER_DOWN -> toxic(fault);
      case COMMAND -> {
        String made = props.made().toString();
        fault.put("inject", List.of("/usr/bin/touch", made));
        fault.put("revert", List.of("/bin/rm", "-f", made));
        fault.put("verify", List.of("/usr/bin/test", "!", "-e", made));
        fault.put("timeout", "2s");
      }
    }
    fault.put("ttl", KillMatrix.TTL.toMillis() + "ms");
    return fault;
  }

  private void toxic(Map<String, Object> fault) {
    fault.put("proxy", proxy.adminUrl().toString());
    fault.put("proxy_name", "payments");
  }

  private Map<String, Object> latency() {
    Map<String, Object> fault = new LinkedHashMap<>();
    fault.put("kind", "http-latency");
    toxic(fault);
    fault.put("share", 0.01);
    fault.put("latency", "20ms");
    fault.put("ttl", KillMatrix.TTL.toMillis() + "ms");
    return fault;
  }

  /**
   * What the trial left in the system, each a line: its toxics on the proxy, its decoy stopped, its
   * cpu-burn workers, its command's file, its watchdog; empty when nothing is left.
   */
  List<String> leftovers(Props props, Optional<JsonNode> journal) {
    List<String> left = new ArrayList<>(faultsLeft(props));
    journal
        .map(j -> j.path("watchdog"))
        .filter(w -> w.has("pid"))
        .ifPresent(
            w -> {
              if (Procs.alive(w.path("pid").asLong(), w.path("start").asLong())) {
                left.add("watchdog PID " + w.path("pid").asLong() + " still running");
              }
            });
    return left;
  }

  /** As {@link #leftovers}, but what a fault leaves only: a watchdog may still be winding down. */
  List<String> faultsLeft(Props props) {
    List<String> left = new ArrayList<>();
    for (String toxic : toxics()) {
      if (toxic.startsWith("(") || toxic.startsWith("firedrill-" + props.id() + "-")) {
        left.add("toxic " + toxic + " on the proxy");
      }
    }
    props
        .decoy()
        .ifPresent(
            decoy -> {
              if (Procs.state(decoy.pid(), decoy.startTicks()) == 'T') {
                left.add("decoy PID " + decoy.pid() + " stopped");
              }
            });
    for (ProcessInfo process : ProcessTable.system().list()) {
      List<String> args = process.args();
      int at = args.indexOf("--experiment");
      if (process.alive()
          && args.contains("dev.firedrill.fault.CpuBurnWorker")
          && at >= 0
          && at + 1 < args.size()
          && args.get(at + 1).equals(props.id())) {
        left.add("cpu-burn worker PID " + process.pid());
      }
    }
    if (Files.exists(props.made())) {
      left.add("the command fault's file " + props.made());
    }
    return left;
  }

  private List<String> toxics() {
    URI url =
        URI.create(proxy.adminUrl().toString().replaceAll("/+$", "") + "/proxies/payments/toxics");
    try {
      HttpResponse<String> answer =
          CLIENT.send(
              HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(5)).build(),
              HttpResponse.BodyHandlers.ofString());
      List<String> names = new ArrayList<>();
      JSON.readTree(answer.body()).forEach(t -> names.add(t.path("name").asText()));
      return names;
    } catch (IOException e) {
      return List.of("(cannot list the proxy's toxics: " + e + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of("(interrupted listing the proxy's toxics)");
    }
  }

  /** Ends what a trial started for itself, whatever it left. */
  void release(Props props) {
    props.decoy().ifPresent(d -> Procs.kill(d.pid(), d.startTicks()));
  }

  @Override
  public void close() {
    proxy.close();
  }
}
