package dev.firedrill.alerting.lint;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.time.Durations;
import dev.firedrill.yaml.Problem;
import dev.firedrill.yaml.SourceTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the linter reads from a {@code prometheus.yml}: the scrape interval (the longest of the global
 * one and every job's own, since a window must suit every series it may read), the global evaluation
 * interval, and the rule files it loads (their recording rules and companion alerts count too).
 * Prometheus's defaults are 1m for both intervals.
 */
public record PrometheusConfig(Duration scrapeInterval, Duration evaluationInterval, List<Path> ruleFiles) {

  public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(1);
  /** Always YAML; later documents ignored; numbers and booleans kept as written. */
  private static final SourceTree.Options READING =
      new SourceTree.Options(false, false, SourceTree.Scalars.TEXT, false);

  /** Reads the file; returns null and adds to {@code problems} when it cannot. */
  public static PrometheusConfig read(Path file, List<Problem> problems) {
    String display = file.toString();
    String content;
    try {
      content = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      problems.add(new Problem(display, "", "cannot read: " + e, 0, 0));
      return null;
    }
    int before = problems.size();
    SourceTree<Problem> tree = readYaml(display, content, problems);
    if (tree == null) {
      return null;
    }
    JsonNode root = tree.root();
    if (root == null || !root.isObject()) {
      problems.add(tree.problem("", "expected a Prometheus configuration (a mapping with global, scrape_configs, ...)"));
      return null;
    }
    JsonNode global = root.path("global");
    Duration scrape = interval(tree, global, "/global/scrape_interval", "scrape_interval", DEFAULT_INTERVAL, problems);
    Duration evaluation = interval(tree, global, "/global/evaluation_interval", "evaluation_interval",
        DEFAULT_INTERVAL, problems);
    JsonNode jobs = root.path("scrape_configs");
    for (int i = 0; i < jobs.size(); i++) {
      Duration job = interval(tree, jobs.get(i), "/scrape_configs/" + i + "/scrape_interval", "scrape_interval",
          scrape, problems);
      if (job != null && scrape != null && job.compareTo(scrape) > 0) {
        scrape = job;
      }
    }
    List<Path> ruleFiles = new ArrayList<>();
    JsonNode patterns = root.path("rule_files");
    Path base = file.toAbsolutePath().getParent();
    for (int i = 0; i < patterns.size(); i++) {
      JsonNode pattern = patterns.get(i);
      if (!pattern.isTextual()) {
        problems.add(tree.problem("/rule_files/" + i, "expected a file name or glob"));
        continue;
      }
      ruleFiles.addAll(expand(base, pattern.asText(), tree, "/rule_files/" + i, problems));
    }
    return problems.size() == before ? new PrometheusConfig(scrape, evaluation, List.copyOf(ruleFiles)) : null;
  }

  /** The YAML tree: duplicate keys and malformed text go to {@code problems}; null when it is malformed. */
  private static SourceTree<Problem> readYaml(String file, String content, List<Problem> problems) {
    SourceTree<Problem> tree = SourceTree.read(file, content, READING, Problem::new);
    problems.addAll(tree.problems());
    return tree.malformed() == null ? tree : null;
  }

  private static Duration interval(SourceTree<Problem> tree, JsonNode parent, String pointer, String key, Duration fallback,
      List<Problem> problems) {
    JsonNode value = parent.path(key);
    if (value.isMissingNode() || value.isNull()) {
      return fallback;
    }
    Duration duration = value.isTextual() ? Durations.parseOrNull(value.asText()) : null;
    if (duration == null || duration.isZero()) {
      problems.add(tree.problem(pointer, "expected a duration such as 15s or 1m"));
      return fallback;
    }
    return duration;
  }

  /** A rule_files entry: a path relative to the config's directory, with a glob in its last part only. */
  private static List<Path> expand(Path base, String pattern, SourceTree<Problem> tree, String pointer,
      List<Problem> problems) {
    Path full = base.resolve(pattern).normalize();
    String last = full.getFileName() == null ? "" : full.getFileName().toString();
    if (!last.contains("*") && !last.contains("?") && !last.contains("[")) {
      return Files.isRegularFile(full) ? List.of(full) : List.of(); // Prometheus ignores a file that is absent
    }
    Path dir = full.getParent();
    if (dir.toString().contains("*") || dir.toString().contains("?")) {
      problems.add(tree.problem(pointer, "the linter expands a glob in the file name only, not in directories"));
      return List.of();
    }
    PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + last);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> Files.isRegularFile(f) && matcher.matches(f.getFileName())).sorted().toList();
    } catch (IOException e) {
      problems.add(tree.problem(pointer, "cannot list " + dir + ": " + e));
      return List.of();
    }
  }
}
