package dev.firedrill.alerting.lint;

import dev.firedrill.format.IoReasons;
import dev.firedrill.rulefmt.RuleFileReader;
import dev.firedrill.yaml.Problem;
import dev.firedrill.yaml.SourceTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The groups of one holder of rule groups: a plain Prometheus rule file, or one PrometheusRule
 * object or document of a file ({@link dev.firedrill.rulefmt.RuleDocuments}); each expression
 * already scanned. {@code name} is how findings name it: the file, with the object when there is
 * one.
 */
public record RuleFile(String name, List<Group> groups) {

  /** A rule group; {@code interval} is null when the group takes the global evaluation interval. */
  public record Group(String name, Duration interval, List<Rule> rules) {}

  /**
   * One rule. {@code kind} is {@code alert} or {@code record}; {@code forDuration} is null without
   * {@code for}; {@code line} is where the rule starts.
   */
  public record Rule(
      String kind,
      String name,
      String expr,
      PromQl.Scan scan,
      Duration forDuration,
      Map<String, String> labels,
      Map<String, String> annotations,
      int line) {

    public boolean isAlert() {
      return kind.equals("alert");
    }
  }

  /**
   * Reads {@code paths}: each file, and the {@code *.yml} and {@code *.yaml} files directly inside
   * each directory in name order. A path that does not exist, a directory with no rule file and a
   * directory that cannot be listed are problems, as are the files' own.
   */
  public static List<RuleFile> readAll(List<Path> paths, List<Problem> problems) {
    List<RuleFile> files = new ArrayList<>();
    for (Path path : paths) {
      for (Path file : filesOf(path, problems)) {
        files.addAll(read(file, file.toString(), problems));
      }
    }
    return files;
  }

  private static List<Path> filesOf(Path path, List<Problem> problems) {
    if (Files.isRegularFile(path)) {
      return List.of(path);
    }
    if (!Files.isDirectory(path)) {
      problems.add(new Problem(path.toString(), "", "no such file or directory", 0, 0));
      return List.of();
    }
    try (Stream<Path> list = Files.list(path)) {
      List<Path> inside =
          list.filter(Files::isRegularFile)
              .filter(p -> p.toString().endsWith(".yml") || p.toString().endsWith(".yaml"))
              .sorted()
              .toList();
      if (inside.isEmpty()) {
        problems.add(
            new Problem(
                path.toString(), "", "no rule files (*.yml, *.yaml) in this directory", 0, 0));
      }
      return inside;
    } catch (IOException e) {
      problems.add(new Problem(path.toString(), "", "cannot list: " + e.getMessage(), 0, 0));
      return List.of();
    }
  }

  /**
   * Reads a rule file: one RuleFile per holder of groups (one for a plain file, one per
   * PrometheusRule object or document); what it cannot read goes to {@code problems}, and a holder
   * with problems is left out. {@code display} is how findings name the file.
   */
  public static List<RuleFile> read(Path path, String display, List<Problem> problems) {
    String content;
    try {
      content = Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      problems.add(new Problem(display, "", "cannot read: " + IoReasons.of(e), 0, 0));
      return List.of();
    }
    return parse(display, content, problems);
  }

  /**
   * The structure is {@link RuleFileReader}'s, shared with the embedded Prometheus; this adds the
   * scan.
   */
  static List<RuleFile> parse(String display, String content, List<Problem> problems) {
    RuleFileReader.Rules<Problem, Group, Rule> scanned =
        new RuleFileReader.Rules<>() {
          @Override
          public Rule rule(
              RuleFileReader.Rule rule, SourceTree<Problem> tree, List<Problem> found) {
            PromQl.Scan scan;
            try {
              scan = PromQl.scan(rule.expr());
            } catch (PromQl.Unreadable e) {
              found.add(
                  tree.problem(
                      rule.pointer() + "/expr",
                      rule.prefix() + "could not parse expression: " + e.getMessage()));
              return null;
            }
            return new Rule(
                rule.alert() ? "alert" : "record",
                rule.name(),
                rule.expr(),
                scan,
                rule.forDuration(),
                rule.labels(),
                rule.annotations(),
                rule.line());
          }

          @Override
          public Group group(RuleFileReader.Group group, List<Rule> rules) {
            return new Group(group.name(), group.interval(), List.copyOf(rules));
          }
        };
    List<RuleFile> files = new ArrayList<>();
    for (RuleFileReader.Holder<Group> holder :
        RuleFileReader.read(
            display,
            content,
            Problem::new,
            problems,
            RuleFileReader.Strictness.PROMETHEUS,
            scanned)) {
      if (holder.clean()) {
        files.add(new RuleFile(holder.part().name(display), List.copyOf(holder.groups())));
      }
    }
    return List.copyOf(files);
  }
}
