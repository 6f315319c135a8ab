package dev.firedrill.promconfig;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.time.Durations;
import dev.firedrill.yaml.SourceTree;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one reader of prometheus.yml, for the embedded Prometheus, {@code rules lint} and a drill's
 * {@code /api/v1/status/config}: the keys of {@link Section} with Prometheus's defaults ({@link
 * GlobalConfig#DEFAULTS}) and its checks (a job needs a unique name, a timeout no longer than its
 * interval, a rule_files glob must be valid). Every problem is collected, each at its JSON pointer
 * and line; {@link Keys} says whether a key outside the model is skipped (Prometheus has hundreds,
 * and its status endpoint renders them all) or refused (a caller that must run every key it is
 * given). What such a caller cannot run among the model's values (https, relabeling labels) it
 * checks on the {@link Config} it gets.
 */
public final class ConfigReader<P> {

  /**
   * Always YAML, one document, scalars as written (a label value 1 is "1"), parser messages for
   * people.
   */
  private static final SourceTree.Options READING =
      new SourceTree.Options(false, true, SourceTree.Scalars.TEXT, true);

  /**
   * The sections of prometheus.yml the model holds, each with the keys it holds, in Prometheus's
   * order.
   */
  public enum Section {
    TOP("global", "scrape_configs", "rule_files", "alerting"),
    GLOBAL(
        "scrape_interval",
        "scrape_timeout",
        "evaluation_interval",
        "rule_query_offset",
        "external_labels"),
    SCRAPE(
        "job_name",
        "scrape_interval",
        "scrape_timeout",
        "metrics_path",
        "scheme",
        "honor_labels",
        "static_configs"),
    STATIC("targets", "labels"),
    ALERTING("alertmanagers"),
    ALERTMANAGER("static_configs", "path_prefix", "scheme", "timeout", "api_version");

    private final List<String> keys;

    Section(String... keys) {
      this.keys = List.of(keys);
    }

    public List<String> keys() {
      return keys;
    }
  }

  /** Which keys a reader takes. */
  public sealed interface Keys {

    /**
     * Any key: those the model does not hold are skipped, as a reader of Prometheus's own output
     * must.
     */
    Keys PROMETHEUS = new Any();

    /** The keys of the section a reader takes, in order. */
    List<String> taken(Section section);

    record Any() implements Keys {
      @Override
      public List<String> taken(Section section) {
        return section.keys();
      }
    }

    /**
     * Only the model's keys, less {@code refused}; every other key is a problem, {@code not
     * supported by READER (supported keys: ...)}: a setting the user wrote and the reader ignored
     * would make its result differ from Prometheus's without a word.
     */
    record Only(String reader, Map<Section, Set<String>> refused) implements Keys {
      public Only {
        refused = Map.copyOf(refused);
      }

      @Override
      public List<String> taken(Section section) {
        Set<String> out = refused.getOrDefault(section, Set.of());
        return section.keys().stream().filter(k -> !out.contains(k)).toList();
      }
    }
  }

  /**
   * The configuration, null when there is any problem. {@code textProblems} are the YAML's own
   * (duplicate keys, malformed text), and when there are any the content is not read; {@code
   * problems} are the content's, in document order.
   */
  public record Result<P>(Config config, List<P> textProblems, List<P> problems) {

    public Result {
      textProblems = List.copyOf(textProblems);
      problems = List.copyOf(problems);
    }

    public List<P> all() {
      List<P> all = new ArrayList<>(textProblems);
      all.addAll(problems);
      return all;
    }
  }

  private final SourceTree<P> tree;
  private final Keys keys;
  private final List<P> problems = new ArrayList<>();

  private ConfigReader(SourceTree<P> tree, Keys keys) {
    this.tree = tree;
    this.keys = keys;
  }

  /**
   * Reads {@code content}.
   *
   * @param source what the text came from, for problems and {@link Config#source()}
   * @param dir where relative rule_files are resolved; null to keep them as written
   * @param unstated the global values the text leaves out: {@link GlobalConfig#DEFAULTS} as
   *     Prometheus has them, or a caller's own (a server that publishes no evaluation interval)
   */
  public static <P> Result<P> read(
      String source,
      Path dir,
      String content,
      Keys keys,
      GlobalConfig unstated,
      SourceTree.Problems<P> factory) {
    SourceTree<P> tree = SourceTree.read(source, content, READING, factory);
    if (!tree.problems().isEmpty()) {
      return new Result<>(null, tree.problems(), List.of());
    }
    ConfigReader<P> reader = new ConfigReader<>(tree, keys);
    Config config = reader.config(source, dir, tree.root(), unstated);
    return new Result<>(reader.problems.isEmpty() ? config : null, List.of(), reader.problems);
  }

  private Config config(String source, Path dir, JsonNode root, GlobalConfig unstated) {
    if (root != null && !mapping(root, "", Section.TOP)) {
      root = null;
    }
    GlobalConfig global = global(present(root, "global"), unstated);
    List<ScrapeConfig> jobs = new ArrayList<>();
    Map<String, String> jobPointers = new HashMap<>();
    List<JsonNode> scrapes = list(present(root, "scrape_configs"), "/scrape_configs");
    for (int i = 0; i < scrapes.size(); i++) {
      String at = "/scrape_configs/" + i;
      ScrapeConfig job = scrape(scrapes.get(i), at, global);
      if (job == null) {
        continue;
      }
      String earlier = jobPointers.putIfAbsent(job.jobName(), at);
      if (earlier != null) {
        problem(
            at + "/job_name",
            "job name \"" + job.jobName() + "\" is already the job name of " + earlier);
      }
      jobs.add(job);
    }
    List<String> ruleFiles = new ArrayList<>();
    List<JsonNode> patterns = list(present(root, "rule_files"), "/rule_files");
    for (int i = 0; i < patterns.size(); i++) {
      String pattern = text(patterns.get(i), "/rule_files/" + i);
      String problem = pattern == null ? null : RuleFileGlob.problem(pattern);
      if (problem != null) {
        problem("/rule_files/" + i, problem);
      } else if (pattern != null) {
        ruleFiles.add(dir == null ? pattern : dir.resolve(pattern).normalize().toString());
      }
    }
    List<AlertmanagerConfig> alertmanagers = new ArrayList<>();
    JsonNode alerting = present(root, "alerting");
    if (alerting != null && mapping(alerting, "/alerting", Section.ALERTING)) {
      List<JsonNode> entries = list(present(alerting, "alertmanagers"), "/alerting/alertmanagers");
      for (int i = 0; i < entries.size(); i++) {
        AlertmanagerConfig alertmanager =
            alertmanager(entries.get(i), "/alerting/alertmanagers/" + i);
        if (alertmanager != null) {
          alertmanagers.add(alertmanager);
        }
      }
    }
    return new Config(source, global, jobs, ruleFiles, alertmanagers);
  }

  private GlobalConfig global(JsonNode node, GlobalConfig unstated) {
    if (node != null && !mapping(node, "/global", Section.GLOBAL)) {
      node = null;
    }
    Duration interval = interval(node, "/global", "scrape_interval", unstated.scrapeInterval());
    // As Prometheus: the 10s default timeout shrinks to a shorter interval; a timeout written is
    // checked.
    Duration timeout =
        interval(node, "/global", "scrape_timeout", min(unstated.scrapeTimeout(), interval));
    checkTimeout(timeout, interval, "/global/scrape_timeout");
    Duration evaluation =
        interval(node, "/global", "evaluation_interval", unstated.evaluationInterval());
    Duration offset =
        keys.taken(Section.GLOBAL).contains("rule_query_offset")
            ? offset(node, "/global", "rule_query_offset", unstated.ruleQueryOffset())
            : unstated.ruleQueryOffset();
    LabelSet external = labels(present(node, "external_labels"), "/global/external_labels");
    return new GlobalConfig(interval, timeout, evaluation, offset, external);
  }

  private ScrapeConfig scrape(JsonNode node, String pointer, GlobalConfig global) {
    if (!mapping(node, pointer, Section.SCRAPE)) {
      return null;
    }
    JsonNode name = present(node, "job_name");
    if (name == null) {
      problem(pointer, "job_name is required");
      return null;
    }
    String jobName = text(name, pointer + "/job_name");
    if (jobName == null) {
      return null;
    }
    if (jobName.isEmpty()) {
      problem(pointer + "/job_name", "expected a job name, found an empty string");
      return null;
    }
    Duration interval = interval(node, pointer, "scrape_interval", global.scrapeInterval());
    Duration timeout =
        interval(node, pointer, "scrape_timeout", min(global.scrapeTimeout(), interval));
    checkTimeout(timeout, interval, pointer + "/scrape_timeout");
    String metricsPath = optionalText(node, pointer, "metrics_path", "/metrics");
    String scheme = optionalText(node, pointer, "scheme", "http");
    boolean honorLabels = bool(node, pointer, "honor_labels");
    List<StaticConfig> statics =
        statics(present(node, "static_configs"), pointer + "/static_configs");
    return new ScrapeConfig(jobName, interval, timeout, metricsPath, scheme, honorLabels, statics);
  }

  private AlertmanagerConfig alertmanager(JsonNode node, String pointer) {
    if (!mapping(node, pointer, Section.ALERTMANAGER)) {
      return null;
    }
    List<StaticConfig> statics =
        statics(present(node, "static_configs"), pointer + "/static_configs");
    String pathPrefix = optionalText(node, pointer, "path_prefix", "/");
    String scheme = optionalText(node, pointer, "scheme", "http");
    Duration timeout = interval(node, pointer, "timeout", AlertmanagerConfig.DEFAULT_TIMEOUT);
    String apiVersion = optionalText(node, pointer, "api_version", "v2");
    return new AlertmanagerConfig(statics, pathPrefix, scheme, timeout, apiVersion);
  }

  private List<StaticConfig> statics(JsonNode node, String pointer) {
    List<StaticConfig> out = new ArrayList<>();
    List<JsonNode> entries = list(node, pointer);
    for (int i = 0; i < entries.size(); i++) {
      String at = pointer + "/" + i;
      JsonNode entry = entries.get(i);
      if (!mapping(entry, at, Section.STATIC)) {
        continue;
      }
      List<String> targets = new ArrayList<>();
      List<JsonNode> written = list(present(entry, "targets"), at + "/targets");
      for (int t = 0; t < written.size(); t++) {
        String target = text(written.get(t), at + "/targets/" + t);
        if (target != null) {
          targets.add(target);
        }
      }
      out.add(new StaticConfig(targets, labels(present(entry, "labels"), at + "/labels")));
    }
    return out;
  }

  private LabelSet labels(JsonNode node, String pointer) {
    if (node == null) {
      return LabelSet.EMPTY;
    }
    if (!node.isObject()) {
      problem(pointer, "expected a mapping of label names to values");
      return LabelSet.EMPTY;
    }
    LabelSet.Builder labels = LabelSet.builder();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String value = text(e.getValue(), pointer + "/" + SourceTree.escape(e.getKey()));
      if (value != null) {
        labels.set(e.getKey(), value);
      }
    }
    return labels.build();
  }

  private void checkTimeout(Duration timeout, Duration interval, String pointer) {
    if (timeout.compareTo(interval) > 0) {
      problem(
          pointer,
          Durations.format(timeout)
              + " is longer than the scrape interval "
              + Durations.format(interval));
    }
  }

  /** An interval or a timeout: above zero. */
  private Duration interval(JsonNode parent, String pointer, String key, Duration fallback) {
    return duration(parent, pointer, key, fallback, true);
  }

  /** An offset into the past, where zero is the default. */
  private Duration offset(JsonNode parent, String pointer, String key, Duration fallback) {
    return duration(parent, pointer, key, fallback, false);
  }

  private Duration duration(
      JsonNode parent, String pointer, String key, Duration fallback, boolean aboveZero) {
    JsonNode node = present(parent, key);
    String written = node == null ? null : text(node, pointer + "/" + key);
    if (written == null) {
      return fallback;
    }
    Duration duration = Durations.parseOrNull(written);
    if (duration == null || (aboveZero && duration.isZero())) {
      problem(
          pointer + "/" + key,
          (aboveZero
                  ? "expected a duration above zero such as 15s, 1m30s or 1h"
                  : "expected a duration such as 0s, 30s or 1m")
              + ", found \""
              + written
              + "\"");
      return fallback;
    }
    return duration;
  }

  private boolean bool(JsonNode parent, String pointer, String key) {
    JsonNode node = present(parent, key);
    if (node == null) {
      return false;
    }
    String written = text(node, pointer + "/" + key);
    if (written == null || written.equals("false")) {
      return false;
    }
    if (!written.equals("true")) {
      problem(pointer + "/" + key, "expected true or false, found \"" + written + "\"");
      return false;
    }
    return true;
  }

  private String optionalText(JsonNode parent, String pointer, String key, String fallback) {
    JsonNode node = present(parent, key);
    String text = node == null ? null : text(node, pointer + "/" + key);
    return text == null ? fallback : text;
  }

  /** The scalar as written, or null (a problem) for a mapping, a list or null. */
  private String text(JsonNode node, String pointer) {
    if (node == null || !node.isValueNode() || node.isNull()) {
      problem(pointer, "expected a string");
      return null;
    }
    return node.asText();
  }

  private List<JsonNode> list(JsonNode node, String pointer) {
    if (node == null) {
      return List.of();
    }
    if (!node.isArray()) {
      problem(pointer, "expected a list");
      return List.of();
    }
    List<JsonNode> out = new ArrayList<>();
    node.forEach(out::add);
    return out;
  }

  /** Whether the node is a mapping; the keys {@link #keys} refuses are problems. */
  private boolean mapping(JsonNode node, String pointer, Section section) {
    List<String> taken = keys.taken(section);
    if (!node.isObject()) {
      problem(pointer, "expected a mapping with the keys " + String.join(", ", taken));
      return false;
    }
    if (keys instanceof Keys.Only only) {
      for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        if (!taken.contains(name)) {
          problem(
              pointer + "/" + SourceTree.escape(name),
              "not supported by "
                  + only.reader()
                  + " (supported keys: "
                  + String.join(", ", taken)
                  + ")");
        }
      }
    }
    return true;
  }

  /** The member, or null when it is absent or written empty (YAML's {@code key:} with no value). */
  private static JsonNode present(JsonNode parent, String key) {
    JsonNode node = parent == null ? null : parent.get(key);
    return node == null || node.isNull() ? null : node;
  }

  private void problem(String pointer, String message) {
    problems.add(tree.problem(pointer, message));
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
