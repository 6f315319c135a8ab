package dev.firedrill.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.yaml.Problem;
import dev.firedrill.yaml.SourceTree;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnmappableCharacterException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads an experiment file (YAML, or JSON for {@code .json} or text starting with {@code {}) and
 * checks all of it, reporting every problem at once with its JSON pointer, line and column. The
 * sections have readers of their own ({@link ClientSections}, {@link SliSections},
 * {@link HypothesisSection}); each entry of {@code method.faults} is its fault kind's to read.
 */
public final class ExperimentLoader {

  /**
   * JSON or YAML by the file's name; one document; typed scalars; malformed text explained,
   * excerpts hidden.
   */
  private static final SourceTree.Options READING =
      new SourceTree.Options(true, true, SourceTree.Scalars.TYPED, true);

  private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9._-]*");

  /** An RFC 1123 label, as Kubernetes names namespaces. */
  private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

  /** Found once, on first use: see {@link FaultSpecReader#installed()}. */
  private static FaultSpecReader installedReader;

  private final Node.Context context;
  private final FaultSpecReader faultReader;
  private final ClientSections clients;
  private final SliSections slis;
  private final HypothesisSection hypotheses;

  private ExperimentLoader(Node.Context context) {
    this.context = context;
    this.faultReader = installedReader();
    this.clients = new ClientSections(context);
    this.slis = new SliSections(context);
    this.hypotheses = new HypothesisSection(context);
  }

  private static synchronized FaultSpecReader installedReader() {
    if (installedReader == null) {
      installedReader = FaultSpecReader.installed();
    }
    return installedReader;
  }

  /** The largest experiment file read: a real one is a few kilobytes. */
  static final int MAX_BYTES = 4 * 1024 * 1024;

  /**
   * At most {@link #MAX_BYTES}: {@code /dev/zero}, a FIFO or a huge file is refused before it fills
   * the heap.
   */
  private static String readBounded(Path file) throws IOException {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(MAX_BYTES + 1);
    }
    if (bytes.length > MAX_BYTES) {
      throw new TooLarge();
    }
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)
        .decode(ByteBuffer.wrap(bytes))
        .toString();
  }

  private static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;
  }

  /** Reads and checks a file; the problems name the file as given. */
  public static Experiment load(Path file) throws ExperimentException {
    String name = file.toString();
    String content;
    try {
      content = readBounded(file);
    } catch (NoSuchFileException e) {
      throw unreadable(
          name, "no such file (firedrill init --fault KIND writes an experiment to start from)");
    } catch (AccessDeniedException e) {
      throw unreadable(name, "permission denied");
    } catch (MalformedInputException | UnmappableCharacterException e) {
      throw unreadable(name, "not UTF-8 text");
    } catch (TooLarge e) {
      throw unreadable(
          name, "larger than " + MAX_BYTES / (1024 * 1024) + " MiB (expected an experiment file)");
    } catch (IOException e) {
      throw unreadable(
          name,
          Files.isDirectory(file) ? "a directory, not a file" : String.valueOf(e.getMessage()));
    }
    return load(name, content);
  }

  /** Reads and checks text; {@code fileName} names it in problems and chooses YAML or JSON. */
  public static Experiment load(String fileName, String content) throws ExperimentException {
    return load(fileName, content, JsonNodeFactory.instance.objectNode());
  }

  /**
   * Reads and checks text whose mappings fall back to {@code defaults} (a suite's shared sections):
   * a key the file lacks is taken from {@code defaults}, mappings merge key by key, and whatever
   * the file says wins. A problem in a value that came from {@code defaults} has no line in this
   * file; its pointer names the key, for the caller to place in its own file.
   */
  public static Experiment load(String fileName, String content, ObjectNode defaults)
      throws ExperimentException {
    SourceTree<Problem> tree = SourceTree.read(fileName, content, READING, Problem::new);
    if (tree.malformed() != null) {
      throw new ExperimentException(List.of(tree.malformed()));
    }
    Node.Context context =
        new Node.Context(fileName, tree.positions(), new ArrayList<>(tree.problems()));
    JsonNode root = tree.root();
    if (!defaults.isEmpty() && root != null && root.isObject()) {
      root = underlay(root.deepCopy(), defaults);
    }
    Experiment experiment;
    try {
      experiment = new ExperimentLoader(context).experiment(new Node(context, "", root));
    } catch (
        IllegalArgumentException
            e) { // a model check the loader missed: still a problem, not a crash
      context.add("", String.valueOf(e.getMessage()));
      experiment = null;
    }
    if (!context.clean()) {
      List<Problem> problems = new ArrayList<>(context.problems);
      problems.sort(Comparator.comparingInt(Problem::line).thenComparingInt(Problem::column));
      throw new ExperimentException(problems);
    }
    return experiment;
  }

  /**
   * Reads one entry of {@code method.faults} on its own with {@code reader}, as a journal keeps
   * each fault: in the file's own words. {@code source} names it in problems, which have no line:
   * the entry is a tree already.
   */
  public static FaultSpec fault(String source, JsonNode entry, FaultSpecReader reader)
      throws ExperimentException {
    Node.Context context =
        new Node.Context(
            source, Map.of("", new SourceTree.Position(0, 0)), new ArrayList<>(), false);
    Node node = new Node(context, "", entry).object();
    FaultSpec spec;
    try {
      spec = node == null ? null : reader.read(node);
    } catch (IllegalArgumentException e) { // as in load: a model check the reader missed
      context.add("", String.valueOf(e.getMessage()));
      spec = null;
    }
    if (!context.clean()) {
      throw new ExperimentException(context.problems);
    }
    return spec;
  }

  /** {@code file} with every key of {@code defaults} it lacks, mappings merged all the way down. */
  private static ObjectNode underlay(ObjectNode file, ObjectNode defaults) {
    defaults
        .properties()
        .forEach(
            entry -> {
              JsonNode own = file.get(entry.getKey());
              if (own == null) {
                file.set(entry.getKey(), entry.getValue().deepCopy());
              } else if (own.isObject() && entry.getValue().isObject()) {
                underlay((ObjectNode) own, (ObjectNode) entry.getValue());
              }
            });
    return file;
  }

  private static ExperimentException unreadable(String file, String why) {
    return new ExperimentException(List.of(new Problem(file, "", "cannot read: " + why, 0, 0)));
  }

  private Experiment experiment(Node root) {
    String expected =
        "expected an experiment: a mapping with id, title, prometheus, steady_state, method,"
            + " abort and blast_radius";
    if (!root.present()) {
      root.problem(expected + "; the file is empty");
      return null;
    }
    if (!root.json.isObject()) {
      return root.fail(expected);
    }
    String id =
        root.get("id")
            .required("an experiment needs an id such as checkout-latency")
            .text(
                ID,
                "expected an id of lowercase letters, digits, '.', '_' and '-', such as checkout-latency");
    String title =
        root.get("title")
            .required("an experiment needs a title that says what the drill shows")
            .text();
    String owner = root.get("owner").text();
    PrometheusSource prometheus =
        clients.prometheus(
            root.section(
                "prometheus",
                "an experiment needs a prometheus section with the url of Prometheus"));
    SteadyState steadyState =
        slis.steadyState(
            root.section(
                "steady_state",
                "a steady state is measured, not assumed; an experiment needs steady_state with at least one SLI"));
    boolean routable = root.get("alertmanager").present() || root.get("receiver").present();
    Hypothesis hypothesis = hypotheses.hypothesis(root.section("hypothesis", null), routable);
    Method method =
        method(
            root.section(
                "method", "an experiment needs a method: a duration and at least one fault"));
    Abort abort = slis.abort(root.section("abort", "an experiment needs an abort section"));
    BlastRadius blastRadius =
        blastRadius(
            root.section(
                "blast_radius",
                "an experiment needs a blast_radius section: how much the drill may break"));
    Optional<AlertmanagerSource> alertmanager =
        Optional.ofNullable(clients.alertmanager(root.section("alertmanager", null)));
    Optional<ReceiverSpec> receiver =
        Optional.ofNullable(clients.receiver(root.section("receiver", null)));
    Markers markers = clients.markers(root.section("markers", null));
    Optional<String> kubernetesContext = kubernetesContext(root.section("kubernetes", null));
    root.rejectUnknownKeys(null);
    return context.clean()
        ? new Experiment(
            id,
            title,
            owner == null ? "" : owner,
            prometheus,
            steadyState,
            hypothesis,
            method,
            abort,
            blastRadius,
            alertmanager,
            receiver,
            markers,
            kubernetesContext)
        : null;
  }

  private Method method(Node section) {
    if (section == null) {
      return null;
    }
    Duration duration =
        section
            .get("duration")
            .required("expected how long the faults stay on, such as 10m")
            .duration(true);
    Node faultsNode = section.get("faults");
    List<Node> items = faultsNode.list();
    if (items != null && items.isEmpty()) {
      faultsNode.problem(
          "missing; a drill needs at least one fault, such as process-kill or cpu-burn");
    }
    List<FaultSpec> faults = new ArrayList<>();
    for (Node item : items == null ? List.<Node>of() : items) {
      Node entry = item.object();
      FaultSpec fault = entry == null ? null : faultReader.read(entry);
      if (fault != null) {
        faults.add(fault);
      }
    }
    section.rejectUnknownKeys(null);
    return context.clean() ? new Method(duration, faults) : null;
  }

  /**
   * The kubeconfig context the Kubernetes faults use; none means the current context, or the pod's
   * service account inside a cluster. Credentials never appear here: they stay in the kubeconfig.
   */
  private static Optional<String> kubernetesContext(Node section) {
    if (section == null) {
      return Optional.empty();
    }
    String name = section.get("context").text();
    section.rejectUnknownKeys(null);
    return Optional.ofNullable(name);
  }

  private BlastRadius blastRadius(Node section) {
    if (section == null) {
      return null;
    }
    Double trafficShare =
        section
            .get("traffic_share")
            .required("expected the share of traffic the faults may touch, such as 0.05 or \"5%\"")
            .share();
    Duration maxDuration =
        section
            .get("max_duration")
            .required("expected the longest the drill may run, such as 15m")
            .duration(true);
    Double budgetCeiling = section.get("budget_ceiling").share();
    Integer maxProcesses = section.get("max_processes").integer(1);
    Integer maxWorkers = section.get("max_workers").integer(1);
    List<String> namespaces = new ArrayList<>();
    List<Node> namespaceNodes = section.get("namespaces").list(); // null: not a list, reported
    for (Node namespace : namespaceNodes == null ? List.<Node>of() : namespaceNodes) {
      String name = namespace.text(NAMESPACE, "expected a Kubernetes namespace name such as shop");
      if (name != null) {
        namespaces.add(name);
      }
    }
    Double maxPercent = section.get("max_percent").share();
    Integer maxPods = section.get("max_pods").integer(1);
    Boolean allowHostNetwork = section.get("allow_host_network").bool();
    section.rejectUnknownKeys(null);
    return context.clean()
        ? new BlastRadius(
            trafficShare,
            maxDuration,
            budgetCeiling == null ? BlastRadius.DEFAULT_BUDGET_CEILING : budgetCeiling,
            maxProcesses == null ? BlastRadius.DEFAULT_MAX_PROCESSES : maxProcesses,
            maxWorkers == null ? BlastRadius.DEFAULT_MAX_WORKERS : maxWorkers,
            namespaces,
            Optional.ofNullable(maxPercent),
            Optional.ofNullable(maxPods),
            Boolean.TRUE.equals(allowHostNetwork))
        : null;
  }
}
