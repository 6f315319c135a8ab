package dev.firedrill.embedded.config;

import dev.firedrill.format.IoReasons;
import dev.firedrill.promconfig.AlertmanagerConfig;
import dev.firedrill.promconfig.Config;
import dev.firedrill.promconfig.ConfigReader;
import dev.firedrill.promconfig.GlobalConfig;
import dev.firedrill.promconfig.ScrapeConfig;
import dev.firedrill.promconfig.StaticConfig;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.yaml.Problem;
import dev.firedrill.yaml.SourceTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the prometheus.yml the embedded Prometheus runs: the model's {@link ConfigReader} with
 * every key outside the model refused with the file and its full key path (a setting the user wrote
 * and we ignored would make a drill on the embedded engine differ from one on the real Prometheus
 * without a word), then what the engine cannot run among the model's values: a global {@code
 * rule_query_offset} (Prometheus 2.53; the engine is a v2.42), https, Alertmanager API v1, targets
 * other than {@code host:port}, UTF-8 and {@code __} labels (the engine runs no relabeling).
 */
public final class ConfigLoader {

  private static final String READER = "the embedded Prometheus";
  private static final ConfigReader.Keys KEYS =
      new ConfigReader.Keys.Only(
          READER, Map.of(ConfigReader.Section.GLOBAL, Set.of("rule_query_offset")));
  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  /**
   * host or host:port; an IPv6 host in brackets. No scheme, path or user: Prometheus refuses those
   * too.
   */
  private static final Pattern TARGET =
      Pattern.compile("(\\[[0-9a-fA-F:.%a-zA-Z]+]|[^\\s/:\\[\\]@?#]+)(:[0-9]{1,5})?");

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
      throw new ConfigException(file + ": cannot read: " + IoReasons.of(e));
    }
    return parse(file, content);
  }

  /**
   * As {@link #load}, for text already read; {@code file} names it and anchors relative rule files.
   * The first problem is the message: malformed text and duplicate keys with their line (the
   * pointer alone does not say where), every other problem by its key path.
   */
  public static Config parse(Path file, String content) {
    ConfigReader.Result<Problem> read =
        ConfigReader.read(
            file.toString(),
            file.toAbsolutePath().getParent(),
            content,
            KEYS,
            GlobalConfig.DEFAULTS,
            Problem::new);
    if (!read.textProblems().isEmpty()) {
      throw new ConfigException(read.textProblems().get(0).toString());
    }
    if (!read.problems().isEmpty()) {
      Problem first = read.problems().get(0);
      throw new ConfigException(
          new Problem(first.file(), first.pointer(), first.message(), 0, 0).toString());
    }
    new ConfigLoader(file.toString()).runnable(read.config());
    return read.config();
  }

  private void runnable(Config config) {
    labels(config.global().externalLabels(), "/global/external_labels");
    List<ScrapeConfig> jobs = config.scrapeConfigs();
    for (int i = 0; i < jobs.size(); i++) {
      ScrapeConfig job = jobs.get(i);
      String at = "/scrape_configs/" + i;
      if (!job.metricsPath().startsWith("/")) {
        throw fail(
            at + "/metrics_path",
            "expected a path starting with /, found \"" + job.metricsPath() + "\"");
      }
      httpOnly(job.scheme(), at);
      statics(job.staticConfigs(), at + "/static_configs");
    }
    List<AlertmanagerConfig> alertmanagers = config.alertmanagers();
    for (int i = 0; i < alertmanagers.size(); i++) {
      AlertmanagerConfig alertmanager = alertmanagers.get(i);
      String at = "/alerting/alertmanagers/" + i;
      statics(alertmanager.staticConfigs(), at + "/static_configs");
      httpOnly(alertmanager.scheme(), at);
      if (!alertmanager.apiVersion().equals("v2")) {
        throw fail(
            at + "/api_version",
            "\""
                + alertmanager.apiVersion()
                + "\" not supported by "
                + READER
                + " (supported: v2)");
      }
    }
  }

  private void statics(List<StaticConfig> statics, String pointer) {
    for (int i = 0; i < statics.size(); i++) {
      String at = pointer + "/" + i;
      List<String> targets = statics.get(i).targets();
      for (int t = 0; t < targets.size(); t++) {
        if (!TARGET.matcher(targets.get(t)).matches()) {
          throw fail(at + "/targets/" + t, "expected host:port, found \"" + targets.get(t) + "\"");
        }
      }
      labels(statics.get(i).labels(), at + "/labels");
    }
  }

  private void labels(LabelSet labels, String pointer) {
    for (String name : labels.names()) {
      String at = pointer + "/" + SourceTree.escape(name);
      if (!LABEL_NAME.matcher(name).matches()) {
        throw fail(at, "invalid label name (expected [a-zA-Z_][a-zA-Z0-9_]*)");
      }
      if (name.startsWith("__")) {
        throw fail(
            at, "labels starting with __ steer relabeling, which " + READER + " does not run");
      }
    }
  }

  private void httpOnly(String scheme, String pointer) {
    if (!scheme.equals("http")) {
      throw fail(
          pointer + "/scheme",
          "\"" + scheme + "\" not supported by " + READER + " (supported: http)");
    }
  }

  private ConfigException fail(String pointer, String message) {
    return new ConfigException(file + ": " + pointer + ": " + message);
  }
}
