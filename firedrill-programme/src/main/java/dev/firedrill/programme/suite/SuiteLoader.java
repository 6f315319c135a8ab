package dev.firedrill.programme.suite;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.ExperimentException;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.format.IoReasons;
import dev.firedrill.time.Durations;
import dev.firedrill.yaml.Problem;
import dev.firedrill.yaml.SourceTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Reads a suite file and every experiment it names, with the suite's {@code defaults} under each,
 * and reports every problem of every file at once: the suite file's own (unknown keys, a missing
 * file, a bad cooldown), then each experiment's in the order the suite runs them. A problem in a
 * value the experiment took from {@code defaults} is placed in the suite file, at {@code
 * /defaults/...}, where the value is written.
 */
public final class SuiteLoader {

  /** Five minutes: a page on a 1m-evaluated rule with a short {@code for} resolves well inside. */
  public static final Duration DEFAULT_COOLDOWN = Duration.ofMinutes(5);

  /** The sections an experiment may share through the suite; the rest is each drill's own. */
  static final List<String> SHARED =
      List.of("prometheus", "alertmanager", "receiver", "markers", "blast_radius", "kubernetes");

  private static final List<String> KEYS = List.of("id", "experiments", "cooldown", "defaults");

  private static final SourceTree.Options READING =
      new SourceTree.Options(true, true, SourceTree.Scalars.TYPED, true);

  private static final Set<String> EXTENSIONS = Set.of(".yaml", ".yml", ".json");

  private final Path file;
  private final String name;
  private final List<Problem> problems = new ArrayList<>();
  private SourceTree<Problem> tree;

  private SuiteLoader(Path file) {
    this.file = file;
    this.name = file.toString();
  }

  public static Suite load(Path file) throws SuiteException {
    return new SuiteLoader(file).suite();
  }

  private Suite suite() throws SuiteException {
    String content = read(file, name, "");
    if (content == null) {
      throw new SuiteException(problems);
    }
    tree = SourceTree.read(name, content, READING, Problem::new);
    if (tree.malformed() != null) {
      throw new SuiteException(List.of(tree.malformed()));
    }
    problems.addAll(tree.problems());
    JsonNode root = tree.root();
    if (root == null || !root.isObject()) {
      problem(
          "",
          "expected a suite: a mapping with id, experiments (files or directories), and optional"
              + " cooldown and defaults");
      throw new SuiteException(problems);
    }
    for (Iterator<String> keys = root.fieldNames(); keys.hasNext(); ) {
      String key = keys.next();
      if (!KEYS.contains(key)) {
        problem("/" + key, "unknown key; expected one of " + String.join(", ", KEYS));
      }
    }
    String id = id(root.get("id"));
    Duration cooldown = cooldown(root.get("cooldown"));
    ObjectNode defaults = defaults(root.get("defaults"));
    List<Path> files = experimentFiles(root.get("experiments"));
    List<Suite.Entry> entries = new ArrayList<>();
    for (Path experimentFile : files) {
      Experiment experiment = experiment(experimentFile, defaults);
      if (experiment != null) {
        entries.add(new Suite.Entry(experimentFile, experiment));
      }
    }
    if (!problems.isEmpty()) {
      throw new SuiteException(problems);
    }
    return new Suite(id, file, cooldown, entries);
  }

  private String id(JsonNode node) {
    if (node == null || !node.isTextual() || !node.asText().matches("[a-z0-9][a-z0-9._-]*")) {
      problem(
          "/id",
          (node == null ? "missing; " : "")
              + "expected the suite's id, lowercase letters, digits, '.', '_' and '-', such as"
              + " quarterly-detection");
      return "";
    }
    return node.asText();
  }

  private Duration cooldown(JsonNode node) {
    if (node == null) {
      return DEFAULT_COOLDOWN;
    }
    try {
      return Durations.parse(node.asText());
    } catch (IllegalArgumentException e) {
      problem(
          "/cooldown",
          Durations.EXPECTED + ": the longest wait between two drills for the alerts to resolve");
      return DEFAULT_COOLDOWN;
    }
  }

  private ObjectNode defaults(JsonNode node) {
    ObjectNode defaults = JsonNodeFactory.instance.objectNode();
    if (node == null) {
      return defaults;
    }
    if (!node.isObject()) {
      problem("/defaults", "expected a mapping of sections shared by every experiment");
      return defaults;
    }
    node.properties()
        .forEach(
            e -> {
              if (SHARED.contains(e.getKey())) {
                defaults.set(e.getKey(), e.getValue());
              } else {
                problem(
                    "/defaults/" + SourceTree.escape(e.getKey()),
                    "not a shared section; expected one of "
                        + String.join(", ", SHARED)
                        + " (the rest belongs in each experiment)");
              }
            });
    return defaults;
  }

  /** The files in the order they run: as listed, a directory's files by name. */
  private List<Path> experimentFiles(JsonNode node) {
    List<Path> files = new ArrayList<>();
    if (node == null || !node.isArray() || node.isEmpty()) {
      problem(
          "/experiments",
          (node == null ? "missing; " : "")
              + "expected a list of experiment files or directories, relative to the suite file");
      return files;
    }
    Path base = file.toAbsolutePath().getParent();
    for (int i = 0; i < node.size(); i++) {
      String pointer = "/experiments/" + i;
      JsonNode item = node.get(i);
      if (!item.isTextual() || item.asText().isBlank()) {
        problem(pointer, "expected the path of an experiment file or of a directory of them");
        continue;
      }
      Path path = base.resolve(item.asText()).normalize();
      if (Files.isDirectory(path)) {
        List<Path> inside = directory(path);
        if (inside.isEmpty()) {
          problem(pointer, path + " holds no experiment files (*.yaml, *.yml, *.json)");
        }
        files.addAll(inside);
      } else if (Files.isRegularFile(path)) {
        files.add(path);
      } else {
        problem(pointer, "no such file or directory: " + path);
      }
    }
    return files;
  }

  private List<Path> directory(Path dir) {
    try (Stream<Path> listing = Files.list(dir)) {
      return listing
          .filter(Files::isRegularFile)
          .filter(
              p -> EXTENSIONS.stream().anyMatch(ext -> p.getFileName().toString().endsWith(ext)))
          .sorted()
          .toList();
    } catch (IOException e) {
      problem("/experiments", "cannot list " + dir + ": " + e.getMessage());
      return List.of();
    }
  }

  private Experiment experiment(Path experimentFile, ObjectNode defaults) {
    String experimentName = experimentFile.toString();
    String content = read(experimentFile, experimentName, "");
    if (content == null) {
      return null;
    }
    try {
      return ExperimentLoader.load(experimentName, content, defaults);
    } catch (ExperimentException e) {
      JsonNode own = SourceTree.read(experimentName, content, READING, Problem::new).root();
      for (Problem p : e.problems()) {
        problems.add(fromDefaults(own, defaults, p) ? inDefaults(p) : p);
      }
      return null;
    }
  }

  /** Whether the value at the problem's pointer was the suite's, not the experiment file's. */
  private static boolean fromDefaults(JsonNode own, ObjectNode defaults, Problem p) {
    if (p.pointer().isEmpty() || own == null) {
      return false;
    }
    JsonPointer pointer = JsonPointer.compile(p.pointer());
    return own.at(pointer).isMissingNode() && !defaults.at(pointer).isMissingNode();
  }

  /** The same problem, at the suite's line for the value, naming the experiment it broke. */
  private Problem inDefaults(Problem p) {
    String pointer = "/defaults" + p.pointer();
    SourceTree.Position at = position(pointer);
    return new Problem(
        name,
        pointer,
        p.message() + " (in " + p.file() + ")",
        at == null ? 0 : at.line(),
        at == null ? 0 : at.column());
  }

  private SourceTree.Position position(String pointer) {
    Map<String, SourceTree.Position> positions = tree.positions();
    String at = pointer;
    while (!positions.containsKey(at) && !at.isEmpty()) {
      at = at.substring(0, at.lastIndexOf('/'));
    }
    return positions.get(at);
  }

  private String read(Path path, String shown, String pointer) {
    try {
      return Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      problems.add(new Problem(shown, pointer, "cannot read: " + IoReasons.of(e), 0, 0));
      return null;
    }
  }

  private void problem(String pointer, String message) {
    SourceTree.Position at = position(pointer);
    problems.add(
        new Problem(
            name, pointer, message, at == null ? 0 : at.line(), at == null ? 0 : at.column()));
  }
}
