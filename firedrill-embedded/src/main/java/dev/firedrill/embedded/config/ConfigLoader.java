package dev.firedrill.embedded.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.time.Durations;
import dev.firedrill.yaml.SourceTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the subset of prometheus.yml the embedded Prometheus runs. Every other key is refused with
 * the file and its full key path: a setting the user wrote and we ignored would make a drill on the
 * embedded engine differ from one on the real Prometheus without a word.
 */
public final class ConfigLoader {

  /** Always YAML, one document, scalars as written (a label value 1 is "1"), parser messages for people. */
  private static final SourceTree.Options READING =
      new SourceTree.Options(false, true, SourceTree.Scalars.TEXT, true);
  private static final List<String> TOP = List.of("global", "scrape_configs", "rule_files", "alerting");
  private static final List<String> GLOBAL =
      List.of("scrape_interval", "scrape_timeout", "evaluation_interval", "external_labels");
  private static final List<String> SCRAPE = List.of("job_name", "scrape_interval", "scrape_timeout", "metrics_path",
      "scheme", "honor_labels", "static_configs");
  private static final List<String> STATIC = List.of("targets", "labels");
  private static final List<String> ALERTING = List.of("alertmanagers");
  private static final List<String> ALERTMANAGER =
      List.of("static_configs", "path_prefix", "scheme", "timeout", "api_version");
  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
  /** host or host:port; an IPv6 host in brackets. No scheme, path or user: Prometheus refuses those too. */
  private static final Pattern TARGET = Pattern.compile("(\\[[0-9a-fA-F:.%a-zA-Z]+]|[^\\s/:\\[\\]@?#]+)(:[0-9]{1,5})?");

  private final String file;

  private ConfigLoader(String file) {
    this.file = file;
  }

  /** The configuration, or {@link ConfigException} naming the file and the key at fault. */
  public static Config load(Path file) {
    String content;
    try {
      content = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ConfigException(file + ": cannot read: " + e.getMessage());
    }
    return parse(file, content);
  }

  /** As {@link #load}, for text already read; {@code file} names it and anchors relative rule files. */
  public static Config parse(Path file, String content) {
    SourceTree<String> tree = SourceTree.read(file.toString(), content, READING, ConfigLoader::located);
    if (!tree.problems().isEmpty()) {
      throw new ConfigException(tree.problems().get(0));
    }
    return new ConfigLoader(file.toString()).config(file, tree.root());
  }

  private static String located(String file, String pointer, String message, int line, int column) {
    String where = file + ": " + (pointer.isEmpty() ? "/" : pointer) + ": " + message;
    return line > 0 ? where + " (line " + line + ", column " + column + ")" : where;
  }

  private Config config(Path path, JsonNode root) {
    if (root != null) {
      mapping(root, "", TOP);
    }
    GlobalConfig global = global(present(root, "global"));
    List<ScrapeConfig> jobs = new ArrayList<>();
    Map<String, String> jobPointers = new HashMap<>();
    List<JsonNode> scrapes = list(present(root, "scrape_configs"), "/scrape_configs");
    for (int i = 0; i < scrapes.size(); i++) {
      ScrapeConfig job = scrape(scrapes.get(i), "/scrape_configs/" + i, global);
      String earlier = jobPointers.putIfAbsent(job.jobName(), "/scrape_configs/" + i);
      if (earlier != null) {
        throw fail("/scrape_configs/" + i + "/job_name",
            "job name \"" + job.jobName() + "\" is already the job name of " + earlier);
      }
      jobs.add(job);
    }
    Path base = path.toAbsolutePath().getParent();
    List<String> ruleFiles = new ArrayList<>();
    List<JsonNode> patterns = list(present(root, "rule_files"), "/rule_files");
    for (int i = 0; i < patterns.size(); i++) {
      String pattern = text(patterns.get(i), "/rule_files/" + i);
      String problem = RuleFileGlob.problem(pattern);
      if (problem != null) {
        throw fail("/rule_files/" + i, problem);
      }
      ruleFiles.add(base.resolve(pattern).normalize().toString());
    }
    List<AlertmanagerConfig> alertmanagers = new ArrayList<>();
    JsonNode alerting = present(root, "alerting");
    if (alerting != null) {
      mapping(alerting, "/alerting", ALERTING);
      List<JsonNode> entries = list(present(alerting, "alertmanagers"), "/alerting/alertmanagers");
      for (int i = 0; i < entries.size(); i++) {
        alertmanagers.add(alertmanager(entries.get(i), "/alerting/alertmanagers/" + i));
      }
    }
    return new Config(path, global, jobs, ruleFiles, alertmanagers);
  }

  private GlobalConfig global(JsonNode node) {
    if (node == null) {
      return new GlobalConfig(GlobalConfig.DEFAULT_SCRAPE_INTERVAL, GlobalConfig.DEFAULT_SCRAPE_TIMEOUT,
          GlobalConfig.DEFAULT_EVALUATION_INTERVAL, LabelSet.EMPTY);
    }
    mapping(node, "/global", GLOBAL);
    Duration interval = duration(node, "/global", "scrape_interval", GlobalConfig.DEFAULT_SCRAPE_INTERVAL);
    // As Prometheus: the 10s default timeout shrinks to a shorter interval; a timeout written is checked.
    Duration timeout = duration(node, "/global", "scrape_timeout", min(GlobalConfig.DEFAULT_SCRAPE_TIMEOUT, interval));
    checkTimeout(timeout, interval, "/global/scrape_timeout");
    Duration evaluation = duration(node, "/global", "evaluation_interval", GlobalConfig.DEFAULT_EVALUATION_INTERVAL);
    LabelSet external = labels(present(node, "external_labels"), "/global/external_labels");
    return new GlobalConfig(interval, timeout, evaluation, external);
  }

  private ScrapeConfig scrape(JsonNode node, String pointer, GlobalConfig global) {
    mapping(node, pointer, SCRAPE);
    JsonNode name = present(node, "job_name");
    if (name == null) {
      throw fail(pointer, "job_name is required");
    }
    String jobName = text(name, pointer + "/job_name");
    if (jobName.isEmpty()) {
      throw fail(pointer + "/job_name", "expected a job name, found an empty string");
    }
    Duration interval = duration(node, pointer, "scrape_interval", global.scrapeInterval());
    Duration timeout = duration(node, pointer, "scrape_timeout", min(global.scrapeTimeout(), interval));
    checkTimeout(timeout, interval, pointer + "/scrape_timeout");
    String metricsPath = optionalText(node, pointer, "metrics_path", "/metrics");
    if (!metricsPath.startsWith("/")) {
      throw fail(pointer + "/metrics_path", "expected a path starting with /, found \"" + metricsPath + "\"");
    }
    String scheme = httpOnly(node, pointer);
    boolean honorLabels = bool(node, pointer, "honor_labels");
    List<StaticConfig> statics = statics(present(node, "static_configs"), pointer + "/static_configs");
    return new ScrapeConfig(jobName, interval, timeout, metricsPath, scheme, honorLabels, statics);
  }

  private AlertmanagerConfig alertmanager(JsonNode node, String pointer) {
    mapping(node, pointer, ALERTMANAGER);
    List<StaticConfig> statics = statics(present(node, "static_configs"), pointer + "/static_configs");
    String pathPrefix = optionalText(node, pointer, "path_prefix", "/");
    String scheme = httpOnly(node, pointer);
    Duration timeout = duration(node, pointer, "timeout", AlertmanagerConfig.DEFAULT_TIMEOUT);
    String apiVersion = optionalText(node, pointer, "api_version", "v2");
    if (!apiVersion.equals("v2")) {
      throw fail(pointer + "/api_version",
          "\"" + apiVersion + "\" not supported by the embedded Prometheus (supported: v2)");
    }
    return new AlertmanagerConfig(statics, pathPrefix, scheme, timeout, apiVersion);
  }

  private List<StaticConfig> statics(JsonNode node, String pointer) {
    List<StaticConfig> out = new ArrayList<>();
    List<JsonNode> entries = list(node, pointer);
    for (int i = 0; i < entries.size(); i++) {
      String at = pointer + "/" + i;
      JsonNode entry = entries.get(i);
      mapping(entry, at, STATIC);
      List<String> targets = new ArrayList<>();
      List<JsonNode> written = list(present(entry, "targets"), at + "/targets");
      for (int t = 0; t < written.size(); t++) {
        String target = text(written.get(t), at + "/targets/" + t);
        if (!TARGET.matcher(target).matches()) {
          throw fail(at + "/targets/" + t, "expected host:port, found \"" + target + "\"");
        }
        targets.add(target);
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
      throw fail(pointer, "expected a mapping of label names to values");
    }
    LabelSet.Builder labels = LabelSet.builder();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String at = pointer + "/" + SourceTree.escape(e.getKey());
      if (!LABEL_NAME.matcher(e.getKey()).matches()) {
        throw fail(at, "invalid label name (expected [a-zA-Z_][a-zA-Z0-9_]*)");
      }
      if (e.getKey().startsWith("__")) {
        throw fail(at, "labels starting with __ steer relabeling, which the embedded Prometheus does not run");
      }
      labels.set(e.getKey(), text(e.getValue(), at));
    }
    return labels.build();
  }

  private String httpOnly(JsonNode node, String pointer) {
    String scheme = optionalText(node, pointer, "scheme", "http");
    if (!scheme.equals("http")) {
      throw fail(pointer + "/scheme", "\"" + scheme + "\" not supported by the embedded Prometheus (supported: http)");
    }
    return scheme;
  }

  private void checkTimeout(Duration timeout, Duration interval, String pointer) {
    if (timeout.compareTo(interval) > 0) {
      throw fail(pointer, Durations.format(timeout) + " is longer than the scrape interval "
          + Durations.format(interval));
    }
  }

  private Duration duration(JsonNode parent, String pointer, String key, Duration fallback) {
    JsonNode node = present(parent, key);
    if (node == null) {
      return fallback;
    }
    String written = text(node, pointer + "/" + key);
    Duration duration = Durations.parseOrNull(written);
    if (duration == null || duration.isZero()) {
      throw fail(pointer + "/" + key, "expected a duration above zero such as 15s, 1m30s or 1h, found \""
          + written + "\"");
    }
    return duration;
  }

  private boolean bool(JsonNode parent, String pointer, String key) {
    JsonNode node = present(parent, key);
    if (node == null) {
      return false;
    }
    String written = text(node, pointer + "/" + key);
    return switch (written) {
      case "true" -> true;
      case "false" -> false;
      default -> throw fail(pointer + "/" + key, "expected true or false, found \"" + written + "\"");
    };
  }

  private String optionalText(JsonNode parent, String pointer, String key, String fallback) {
    JsonNode node = present(parent, key);
    return node == null ? fallback : text(node, pointer + "/" + key);
  }

  private String text(JsonNode node, String pointer) {
    if (node == null || !node.isValueNode() || node.isNull()) {
      throw fail(pointer, "expected a string");
    }
    return node.asText();
  }

  private List<JsonNode> list(JsonNode node, String pointer) {
    if (node == null) {
      return List.of();
    }
    if (!node.isArray()) {
      throw fail(pointer, "expected a list");
    }
    List<JsonNode> out = new ArrayList<>();
    node.forEach(out::add);
    return out;
  }

  private void mapping(JsonNode node, String pointer, List<String> supported) {
    if (!node.isObject()) {
      throw fail(pointer, "expected a mapping with the keys " + String.join(", ", supported));
    }
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!supported.contains(name)) {
        throw fail(pointer + "/" + SourceTree.escape(name),
            "not supported by the embedded Prometheus (supported keys: " + String.join(", ", supported) + ")");
      }
    }
  }

  /** The member, or null when it is absent or written empty (YAML's {@code key:} with no value). */
  private static JsonNode present(JsonNode parent, String key) {
    JsonNode node = parent == null ? null : parent.get(key);
    return node == null || node.isNull() ? null : node;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private ConfigException fail(String pointer, String message) {
    return new ConfigException(file + ": " + (pointer.isEmpty() ? "/" : pointer) + ": " + message);
  }
}
