package dev.firedrill.simulate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.time.Durations;
import dev.firedrill.yaml.NearestName;
import dev.firedrill.yaml.SourceTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads a model file: every key optional, each missing one the lab's value.
 *
 * <pre>
 * rate: 20                        # checkouts a second
 * checkout_timeout: 300ms
 * cpu_burn_latency_per_worker: 5ms
 * checkout: {error_ratio: 0, latency: 1ms, jitter: 1ms}
 * payments: {error_ratio: 0, latency: 10ms, jitter: 2ms}
 * </pre>
 */
public final class ModelFile {

  private static final SourceTree.Options READING =
      new SourceTree.Options(false, true, SourceTree.Scalars.TEXT, true);
  private static final List<String> TOP =
      List.of(
          "rate",
          "checkout_timeout",
          "cpu_burn_latency_per_worker",
          LabModel.CHECKOUT,
          LabModel.PAYMENTS);
  private static final List<String> SERVICE = List.of("error_ratio", "latency", "jitter");

  private final SourceTree<String> tree;
  private final List<String> problems = new ArrayList<>();

  private ModelFile(SourceTree<String> tree) {
    this.tree = tree;
    problems.addAll(tree.problems());
  }

  public static LabModel load(Path file) throws ModelException {
    String content;
    try {
      content = Files.readString(file, StandardCharsets.UTF_8);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new ModelException(
          List.of(file + ": cannot read: no such file (expected a model file: docs/simulate.md)"));
    } catch (IOException e) {
      throw new ModelException(
          List.of(
              file
                  + ": cannot read: "
                  + (Files.isDirectory(file) ? "a directory, not a file" : e.getMessage())));
    }
    return parse(file.toString(), content);
  }

  public static LabModel parse(String file, String content) throws ModelException {
    ModelFile reader = new ModelFile(SourceTree.read(file, content, READING, ModelFile::located));
    LabModel model = reader.model();
    if (!reader.problems.isEmpty()) {
      throw new ModelException(reader.problems);
    }
    return model;
  }

  private static String located(String file, String pointer, String message, int line, int column) {
    String where = file + ": " + (pointer.isEmpty() ? "/" : pointer) + ": " + message;
    return line > 0 ? where + " (line " + line + ", column " + column + ")" : where;
  }

  private LabModel model() {
    LabModel lab = LabModel.lab();
    JsonNode root = tree.root();
    if (root == null || root.isNull()) {
      return lab;
    }
    if (!root.isObject()) {
      problems.add(
          tree.problem("", "expected a mapping of rate, checkout_timeout, checkout and payments"));
      return lab;
    }
    unknownKeys(root, "", TOP);
    double rate =
        value(
            root,
            "/rate",
            ModelFile::number,
            "a positive number of checkouts a second, such as 20",
            lab.rate(),
            r -> r > 0);
    Duration timeout =
        value(
            root,
            "/checkout_timeout",
            Durations::parse,
            "a positive duration such as 300ms",
            lab.checkoutTimeout(),
            d -> !d.isZero());
    Duration cpu =
        value(
            root,
            "/cpu_burn_latency_per_worker",
            Durations::parse,
            "a duration such as 5ms",
            lab.cpuBurnLatencyPerWorker(),
            d -> true);
    ServiceModel checkout = service(root, lab.checkout());
    ServiceModel payments = service(root, lab.payments());
    if (!problems.isEmpty()) {
      return lab;
    }
    return new LabModel(rate, checkout, payments, timeout, cpu);
  }

  private ServiceModel service(JsonNode root, ServiceModel lab) {
    String at = "/" + lab.name();
    JsonNode node = root.at(at);
    if (node.isMissingNode() || node.isNull()) {
      return lab;
    }
    if (!node.isObject()) {
      problems.add(tree.problem(at, "expected a mapping of error_ratio, latency and jitter"));
      return lab;
    }
    unknownKeys(node, at, SERVICE);
    double errors =
        value(
            root,
            at + "/error_ratio",
            ModelFile::number,
            "a share from 0 to 1, such as 0.1",
            lab.errorRatio(),
            r -> r >= 0 && r <= 1);
    Duration latency =
        value(
            root,
            at + "/latency",
            Durations::parse,
            "a duration such as 10ms",
            lab.latency(),
            d -> true);
    Duration jitter =
        value(
            root,
            at + "/jitter",
            Durations::parse,
            "a duration such as 2ms",
            lab.jitter(),
            d -> true);
    return new ServiceModel(lab.name(), errors, latency, jitter);
  }

  private void unknownKeys(JsonNode node, String at, List<String> known) {
    for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); ) {
      String key = it.next().getKey();
      if (!known.contains(key)) {
        problems.add(
            tree.problem(
                at + "/" + SourceTree.escape(key),
                "unknown key; " + NearestName.suggest(key, known, "expected one of: ")));
      }
    }
  }

  private interface Check<T> {
    boolean ok(T value);
  }

  private <T> T value(
      JsonNode root,
      String pointer,
      Function<String, T> parse,
      String expected,
      T otherwise,
      Check<T> check) {
    JsonNode node = root.at(pointer);
    if (node.isMissingNode()) {
      return otherwise;
    }
    try {
      T value = parse.apply(node.isValueNode() ? node.asText() : "");
      if (check.ok(value)) {
        return value;
      }
    } catch (RuntimeException e) {
      // reported below with what was expected
    }
    problems.add(
        tree.problem(
            pointer,
            "expected "
                + expected
                + ", got "
                + (node.isValueNode()
                    ? "\"" + node.asText() + "\""
                    : "a " + node.getNodeType().toString().toLowerCase(Locale.ROOT))));
    return otherwise;
  }

  private static double number(String text) {
    double value = Double.parseDouble(text);
    if (!Double.isFinite(value)) {
      throw new NumberFormatException(text);
    }
    return value;
  }
}
