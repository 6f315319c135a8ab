package dev.firedrill.killmatrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.fault.ProcessInfo;
import dev.firedrill.fault.ProcessTable;
import dev.firedrill.kubernetes.testing.ChaosMeshController;
import dev.firedrill.kubernetes.testing.TestCluster;
import dev.firedrill.network.testing.NetLab;
import dev.firedrill.proxy.FaultProxy;
import dev.firedrill.proxy.ProxyConfig;
import dev.firedrill.spring.testing.SpringApp;
import dev.firedrill.testing.DemoStack;
import dev.firedrill.testing.Procs;
import dev.firedrill.testing.SyntheticService;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
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
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.opentest4j.TestAbortedException;

/**
 * What the trials drill against, on loopback: the demo stack (a real Prometheus scraping a
 * synthetic service, with one alert rule that never fires), firedrill's fault proxy in this JVM, a
 * real Spring Boot application with Chaos Monkey (one spring trial at a time), and per trial what
 * its kind needs: a {@code sleep} decoy, two network namespaces joined by a veth pair ({@link
 * NetLab}), or a mock API server with its ReplicaSet and Chaos Mesh controllers ({@link
 * TestCluster}). It writes each trial's experiment and says what a trial left behind.
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

  /**
   * The mock API server logs every request it answers at INFO: thousands of lines a run, as the
   * trials poll their clusters every 50 ms. Held here, since JUL keeps its loggers weakly.
   */
  private static final Logger MOCK_SERVER_LOG = Logger.getLogger("io.fabric8.mockwebserver");

  static {
    MOCK_SERVER_LOG.setLevel(Level.WARNING);
  }

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /** The namespace and deployment of each trial's own cluster: three pods labelled app=web. */
  static final String SHOP = "shop";

  static final int PODS = 3;

  /** The Chaos Mesh kind the chaos-mesh trials create. */
  static final String CHAOS = "NetworkChaos";

  private final DemoStack stack;
  private final FaultProxy proxy;
  private final Path dir;

  /**
   * Chaos Monkey is one per application, and refused when already enabled: one trial at once. The
   * application starts at the first spring trial (a test drilling no spring pays nothing for it).
   */
  private final Semaphore springTurn = new Semaphore(1);

  private volatile SpringApp spring;

  private Set<FaultKind> kinds;
  private final List<String> notDrilled = new ArrayList<>();

  MatrixLab(DemoStack stack, Path dir) throws IOException {
    this.stack = stack;
    this.dir = dir;
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

  /**
   * The kinds this machine drills, in {@link FaultKind}'s order: the network kinds need root, ip,
   * nft and tc (missing, they are left out saying why, and CI=true fails), network-delay the
   * kernel's netem.
   */
  synchronized List<FaultKind> kinds() throws IOException, InterruptedException {
    if (kinds == null) {
      Set<FaultKind> all = EnumSet.allOf(FaultKind.class);
      try {
        NetLab.requireTools();
        if (!netem()) {
          all.remove(FaultKind.NETWORK_DELAY);
          notDrilled.add(
              "network-delay: this kernel has no sch_netem (CONFIG_NET_SCH_NETEM); no package"
                  + " adds it");
        }
      } catch (TestAbortedException e) {
        all.removeIf(k -> k.target == FaultKind.Target.NETNS);
        notDrilled.add("the network kinds: " + e.getMessage());
      }
      // -Dkillmatrix.kinds=network-loss,chaos-mesh drills only those (to chase one kind's defect).
      String only = System.getProperty("killmatrix.kinds", "").strip();
      if (!only.isEmpty()) {
        List<String> named = List.of(only.split("\\s*,\\s*"));
        all.removeIf(k -> !named.contains(k.kind));
        if (all.isEmpty()) {
          throw new IllegalArgumentException(
              "-Dkillmatrix.kinds="
                  + only
                  + " names no fault kind; expected some of "
                  + EnumSet.allOf(FaultKind.class).stream().map(k -> k.kind).toList());
        }
      }
      kinds = all;
    }
    return List.copyOf(kinds);
  }

  /** The kinds {@link #kinds} left out, each with the reason. */
  synchronized List<String> notDrilled() {
    return List.copyOf(notDrilled);
  }

  /** As the network module's plan probes it: a netem qdisc in a throwaway namespace. */
  private static boolean netem() throws IOException, InterruptedException {
    Process probe =
        new ProcessBuilder(
                "unshare", "--net", "tc", "qdisc", "add", "dev", "lo", "root", "netem", "delay",
                "1ms")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (!probe.waitFor(20, TimeUnit.SECONDS)) {
      probe.destroyForcibly();
      return false;
    }
    return probe.exitValue() == 0;
  }

  /** A trial's own cluster: the mock API server, Chaos Mesh beside it, a kubeconfig to reach it. */
  record Cluster(TestCluster api, ChaosMeshController chaosMesh, Path kubeconfig) {}

  /**
   * One trial's own things: its decoy, its command fault's file, its namespaces or its cluster, and
   * the environment its firedrill processes run with.
   */
  record Props(
      Path dir,
      String id,
      FaultKind kind,
      Optional<Procs.Stat> decoy,
      String decoyMatch,
      Path made,
      Optional<NetLab> net,
      Optional<Cluster> cluster,
      Map<String, String> environment) {}

  Props props(Path dir, String id, FaultKind kind) throws IOException, InterruptedException {
    String token = Procs.uniqueSleepToken();
    Optional<Procs.Stat> decoy =
        kind == FaultKind.PROCESS_STOP ? Optional.of(Procs.startDecoy(token)) : Optional.empty();
    Optional<NetLab> net =
        kind.target == FaultKind.Target.NETNS ? Optional.of(NetLab.create()) : Optional.empty();
    Optional<Cluster> cluster = Optional.empty();
    Map<String, String> environment = Map.of();
    if (kind.target == FaultKind.Target.CLUSTER) {
      TestCluster api = new TestCluster(Duration.ofMillis(100), Duration.ofMillis(100));
      ChaosMeshController chaosMesh = new ChaosMeshController(api);
      Path kubeconfig = api.kubeconfig(dir);
      api.deployment(SHOP, "web", PODS, Map.of("app", "web"));
      cluster = Optional.of(new Cluster(api, chaosMesh, kubeconfig));
      // HOME too, so no ~/.kube/config of this machine's is read instead.
      environment = Map.of("KUBECONFIG", kubeconfig.toString(), "HOME", dir.toString());
    }
    if (kind.target == FaultKind.Target.SPRING) {
      springTurn.acquire();
      if (spring == null) {
        try {
          spring = SpringApp.start(Files.createDirectories(this.dir.resolve("spring")));
        } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
          springTurn.release();
          throw e;
        }
      }
    }
    return new Props(
        dir,
        id,
        kind,
        decoy,
        "sleep " + token,
        dir.resolve("made-by-" + id),
        net,
        cluster,
        environment);
  }

  /** The experiment: fault 0 of {@code kind}, fault 1 an http-latency on the same proxy. */
  Path experiment(Props props) throws IOException {
    FaultKind kind = props.kind();
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
    if (kind.target == FaultKind.Target.CLUSTER) {
      blast.put("namespaces", List.of(SHOP));
      blast.put("max_percent", 0.34);
      blast.put("max_pods", 1);
    }
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("id", props.id());
    root.put("title", "kill matrix trial " + props.id());
    root.put("prometheus", Map.of("url", stack.prometheus().url().toString(), "timeout", "2s"));
    if (kind.target == FaultKind.Target.CLUSTER) {
      root.put("kubernetes", Map.of("context", "mock"));
    }
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
      case HTTP_RESET -> {
        toxic(fault);
        fault.put("share", 0.01);
      }
      case HTTP_TIMEOUT -> {
        toxic(fault);
        fault.put("share", 0.01);
        fault.put("timeout", "1s");
      }
      case EXPORTER_DOWN -> toxic(fault);
      case COMMAND -> {
        String made = props.made().toString();
        fault.put("inject", List.of("/usr/bin/touch", made));
        fault.put("revert", List.of("/bin/rm", "-f", made));
        fault.put("verify", List.of("/usr/bin/test", "!", "-e", made));
        fault.put("timeout", "2s");
      }
      case NETWORK_PARTITION, NETWORK_REFUSE, NETWORK_LOSS -> {
        NetLab net = props.net().orElseThrow();
        fault.put("namespace", net.client);
        fault.put("to", List.of(net.serverAddress));
        fault.put("ports", List.of(NetLab.PORT));
        if (kind == FaultKind.NETWORK_LOSS) {
          fault.put("share", "10%");
        }
      }
      case NETWORK_BANDWIDTH, NETWORK_DELAY -> {
        NetLab net = props.net().orElseThrow();
        fault.put("namespace", net.client);
        fault.put("device", net.clientDevice);
        if (kind == FaultKind.NETWORK_BANDWIDTH) {
          fault.put("rate", "1mbit");
        } else {
          fault.put("delay", "50ms");
        }
      }
      case POD_DELETE -> {
        fault.put("namespace", SHOP);
        fault.put("selector", Map.of("labels", Map.of("app", "web")));
        fault.put("mode", "one");
      }
      case CHAOS_MESH -> {
        fault.put("object", chaos());
        fault.put("inject_timeout", "10s");
        fault.put("delete_timeout", "10s");
      }
      case SPRING_CHAOS_MONKEY -> {
        fault.put("actuator", spring.actuator().toString());
        fault.put(
            "assaults", Map.of("level", 100, "deterministic", true, "latency_range", "10ms..20ms"));
        fault.put("watchers", Map.of("service", true));
      }
    }
    fault.put("ttl", KillMatrix.TTL.toMillis() + "ms");
    return fault;
  }

  /** A NetworkChaos on one web pod whose spec.duration is the ttl: Chaos Mesh ends it then. */
  private static Map<String, Object> chaos() {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("action", "delay");
    spec.put("mode", "one");
    spec.put(
        "selector", Map.of("namespaces", List.of(SHOP), "labelSelectors", Map.of("app", "web")));
    spec.put("delay", Map.of("latency", "20ms"));
    spec.put("direction", "to");
    spec.put("duration", KillMatrix.TTL.toMillis() + "ms");
    Map<String, Object> object = new LinkedHashMap<>();
    object.put("apiVersion", "chaos-mesh.org/v1alpha1");
    object.put("kind", CHAOS);
    object.put("metadata", Map.of("name", "web-delay", "namespace", SHOP));
    object.put("spec", spec);
    return object;
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
   * cpu-burn workers, its command's file, its nftables tables and tc qdiscs, its cluster's pods not
   * yet replaced and Chaos Mesh objects, Chaos Monkey enabled, its watchdog; empty when nothing is
   * left. Without {@code residue}, only what is still in effect: what the ttl must end (an nftables
   * table whose elements timed out, a Chaos Mesh object Chaos Mesh recovered, are for {@code
   * cleanup} to delete).
   */
  List<String> leftovers(Props props, Optional<JsonNode> journal, boolean residue) {
    List<String> left = new ArrayList<>(faultsLeft(props, residue));
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
  List<String> faultsLeft(Props props, boolean residue) {
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
    props.net().ifPresent(net -> left.addAll(netLeft(net, residue)));
    props.cluster().ifPresent(cluster -> left.addAll(clusterLeft(cluster, residue)));
    if (props.kind().target == FaultKind.Target.SPRING) {
      left.addAll(springLeft());
    }
    return left;
  }

  /** The trial's namespace holds no nftables table and its device the kernel's default qdisc. */
  private static List<String> netLeft(NetLab net, boolean residue) {
    List<String> left = new ArrayList<>();
    try {
      for (String line : inNetns(net, "nft", "list", "tables").lines().toList()) {
        String table = line.strip().replaceFirst("^table\\s+", "");
        if (table.isEmpty()) {
          continue;
        }
        String[] family = table.split("\\s+");
        String listed = inNetns(net, "nft", "list", "table", family[0], family[1]);
        // The kernel removes the timed-out elements; the empty table is cleanup's to delete.
        boolean targets = listed.contains("elements = {");
        if (residue || targets) {
          left.add(
              "nftables table "
                  + table
                  + " in netns "
                  + net.client
                  + (targets ? " with its targets" : ", empty"));
        }
      }
      String qdisc = inNetns(net, "tc", "qdisc", "show", "dev", net.clientDevice);
      for (String line : qdisc.lines().toList()) {
        if (line.contains(" root ") && !line.startsWith("qdisc noqueue 0:")) {
          left.add("tc " + line.strip() + " in netns " + net.client);
        }
      }
    } catch (IOException | RuntimeException | AssertionError e) {
      left.add("(cannot list netns " + net.client + ": " + e.getMessage() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      left.add("(interrupted listing netns " + net.client + ")");
    }
    return left;
  }

  private static String inNetns(NetLab net, String... argv)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", net.client));
    command.addAll(List.of(argv));
    return NetLab.run(command.toArray(String[]::new));
  }

  /**
   * The cluster has its three Ready web pods again, and no Chaos Mesh object in effect (with {@code
   * residue}: none at all).
   */
  private static List<String> clusterLeft(Cluster cluster, boolean residue) {
    List<String> left = new ArrayList<>();
    try {
      long ready =
          cluster.api().client().pods().inNamespace(SHOP).list().getItems().stream()
              .filter(MatrixLab::ready)
              .count();
      if (ready < PODS) {
        left.add(SHOP + "/web has " + ready + " of " + PODS + " pods Ready");
      }
      for (GenericKubernetesResource object : cluster.chaosMesh().objects(CHAOS, SHOP)) {
        String recovered = condition(object, "AllRecovered");
        if (residue || !"True".equals(recovered)) {
          left.add(
              "Chaos Mesh "
                  + CHAOS
                  + " "
                  + SHOP
                  + "/"
                  + object.getMetadata().getName()
                  + " (AllRecovered "
                  + (recovered.isEmpty() ? "not yet reported" : recovered)
                  + ")");
        }
      }
    } catch (RuntimeException e) {
      left.add("(cannot list the cluster: " + e.getMessage() + ")");
    }
    return left;
  }

  private static boolean ready(Pod pod) {
    return pod.getMetadata().getDeletionTimestamp() == null
        && "Running".equals(pod.getStatus().getPhase())
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static String condition(GenericKubernetesResource object, String type) {
    JsonNode status = JSON.valueToTree(object.getAdditionalProperties().get("status"));
    for (JsonNode condition : status.path("conditions")) {
      if (type.equals(condition.path("type").asText())) {
        return condition.path("status").asText();
      }
    }
    return "";
  }

  /** Chaos Monkey disabled, its latency and exception assaults off. */
  private List<String> springLeft() {
    List<String> left = new ArrayList<>();
    try {
      JsonNode status = JSON.readTree(spring.get("/actuator/chaosmonkey/status").body());
      if (status.path("enabled").asBoolean(true)) {
        left.add("Chaos Monkey enabled at " + spring.actuator() + ": " + status);
      }
      JsonNode assaults = JSON.readTree(spring.get("/actuator/chaosmonkey/assaults").body());
      for (String assault : List.of("latencyActive", "exceptionsActive")) {
        if (assaults.path(assault).asBoolean(true)) {
          left.add("Chaos Monkey's " + assault + " at " + spring.actuator());
        }
      }
    } catch (IOException e) {
      left.add("(cannot read Chaos Monkey at " + spring.actuator() + ": " + e + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      left.add("(interrupted reading Chaos Monkey)");
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
    props.net().ifPresent(NetLab::close);
    props
        .cluster()
        .ifPresent(
            c -> {
              c.chaosMesh().close();
              c.api().close();
            });
    if (props.kind().target == FaultKind.Target.SPRING) {
      springTurn.release();
    }
  }

  @Override
  public void close() {
    try {
      if (spring != null) {
        spring.close();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      proxy.close();
    }
  }
}
