package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.firedrill.experiment.ExperimentException;
import dev.firedrill.experiment.ExperimentFields;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.fault.FaultKinds;
import dev.firedrill.yaml.Problem;
import dev.firedrill.yaml.SourceTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The schema {@code firedrill schema} prints agrees with the loader: every fixture, good and
 * deliberately bad, and variants of the good ones broken the ways people break them, are accepted
 * by both or refused by both.
 */
class ExperimentSchemaTest {

  private static final Schema SCHEMA =
      SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
          .getSchema(ExperimentSchema.schema(FaultKinds.installed()));

  private static final SourceTree.Options READING =
      new SourceTree.Options(true, true, SourceTree.Scalars.TYPED, true);

  static Stream<Path> fixtures() throws IOException {
    List<Path> files = new ArrayList<>();
    for (String dir : List.of("fixtures/experiments", "fixtures/bad")) {
      try (Stream<Path> list = Files.list(Path.of(dir))) {
        list.filter(f -> f.toString().matches(".*\\.(yaml|yml|json)")).sorted().forEach(files::add);
      }
    }
    return files.stream();
  }

  @ParameterizedTest
  @MethodSource("fixtures")
  void theSchemaAndTheLoaderAgreeOnEveryFixture(Path file) throws IOException {
    assertAgree(file.toString(), Files.readString(file));
  }

  /** Each good fixture broken one way at a time; the loader and the schema must both refuse. */
  static Stream<String[]> breakages() {
    return Stream.of(
        new String[] {"an unknown top-level key", "owner: team-checkout", "ownr: team-checkout"},
        new String[] {"a duration without a unit", "duration: 1m", "duration: 60"},
        new String[] {"a secret in the file", "  timeout: 2s", "  timeout: 2s\n  bearer_token: x"},
        new String[] {
          "an unknown fault key", "      status: 503", "      status: 503\n      colour: red"
        },
        new String[] {
          "another kind's key", "      status: 503", "      status: 503\n      latency: 1s"
        },
        new String[] {"an unknown fault kind", "kind: http-error", "kind: http-eror"},
        new String[] {"a share above one", "traffic_share: 100%", "traffic_share: 2"},
        new String[] {"a missing section", "blast_radius:\n", "blast_radiu:\n"},
        new String[] {"a string for a number", "max: 0.01", "max: low"});
  }

  @ParameterizedTest
  @MethodSource("breakages")
  void bothRefuseTheOutageFixtureBroken(String what, String from, String to) throws IOException {
    String good = Files.readString(Path.of("fixtures/experiments/payments-outage.yaml"));
    assertThat(good).as(what).contains(from);
    String bad = good.replaceFirst(java.util.regex.Pattern.quote(from), to);

    assertThat(loaderErrors("outage.yaml", bad)).as(what + ": the loader refuses").isNotEmpty();
    assertThat(schemaErrors("outage.yaml", bad)).as(what + ": the schema refuses").isNotEmpty();
  }

  /**
   * Generated from the declaration both read: every declared field of every good fixture, removed
   * when it is required and given a value of the wrong type, must be refused by both.
   */
  static Stream<String[]> declaredFieldsBroken() throws IOException {
    List<String[]> cases = new ArrayList<>();
    try (Stream<Path> list = Files.list(Path.of("fixtures/experiments"))) {
      for (Path file :
          list.filter(f -> f.toString().matches(".*\\.(yaml|yml|json)")).sorted().toList()) {
        JsonNode root = tree(file.toString(), Files.readString(file));
        collect(file.getFileName().toString(), root, "", root, cases);
      }
    }
    return cases.stream();
  }

  private static void collect(
      String file, JsonNode root, String pointer, JsonNode node, List<String[]> cases) {
    if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        collect(file, root, pointer + "/" + i, node.get(i), cases);
      }
      return;
    }
    if (!node.isObject()) {
      return;
    }
    Optional<String> section = ExperimentFields.sectionAt(pointer);
    if (section.isEmpty()) {
      return;
    }
    for (ExperimentFields.Field field : ExperimentFields.fields(section.get())) {
      JsonNode value = node.get(field.name());
      if (value == null) {
        continue;
      }
      String at = pointer + "/" + field.name();
      if (field.required()) {
        ObjectNode copy = root.deepCopy();
        ((ObjectNode) copy.at(pointer)).remove(field.name());
        cases.add(new String[] {file + ": " + at + " removed", copy.toString()});
      }
      ObjectNode copy = root.deepCopy();
      ((ObjectNode) copy.at(pointer)).set(field.name(), wrong(field.type()));
      cases.add(new String[] {file + ": " + at + " of the wrong type", copy.toString()});
      collect(file, root, at, value, cases);
    }
  }

  /** A value the field's type never takes. */
  private static JsonNode wrong(ExperimentFields.Type type) {
    JsonNodeFactory json = JsonNodeFactory.instance;
    return switch (type) {
      case TEXT, TEXTS, SECTION, SECTIONS, FAULTS -> json.numberNode(42);
      case URL -> json.textNode("ftp://example.invalid/");
      case DURATION -> json.textNode("soon");
      case SHARE -> json.numberNode(2);
      case NUMBER, BOOLEAN -> json.textNode("maybe");
      case INTEGER -> json.numberNode(0.5);
      case STRINGS, LABELS -> json.textNode("x");
    };
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("declaredFieldsBroken")
  void bothRefuseEveryDeclaredFieldRemovedOrMistyped(String what, String json) {
    assertThat(loaderErrors("broken.json", json)).as(what + ": the loader refuses").isNotEmpty();
    assertThat(schemaErrors("broken.json", json)).as(what + ": the schema refuses").isNotEmpty();
  }

  @Test
  void theLoaderCannotReadAKeyTheDeclarationLacks() {
    assertThatThrownBy(() -> dev.firedrill.experiment.NodeProbe.readUndeclared("colour"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("/colour, which ExperimentFields does not declare");
  }

  @Test
  void theSchemaCommandPrintsADraft202012SchemaNamingEveryInstalledFaultKind() throws Exception {
    CliRun run = CliRun.of("schema");

    assertThat(run.exit()).as(run.describe()).isZero();
    JsonNode printed = new ObjectMapper().readTree(run.out());
    assertThat(printed.get("$schema").asText())
        .isEqualTo("https://json-schema.org/draft/2020-12/schema");
    JsonNode kinds = printed.at("/properties/method/properties/faults/items/properties/kind/enum");
    List<String> names = new ArrayList<>();
    kinds.forEach(k -> names.add(k.asText()));
    assertThat(names).containsExactlyElementsOf(FaultKinds.installed().names());
  }

  static void assertAgree(String name, String content) {
    List<String> loader = loaderErrors(name, content);
    List<String> schema = schemaErrors(name, content);
    assertThat(schema.isEmpty())
        .as(name + ": loader says " + loader + ", schema says " + schema)
        .isEqualTo(loader.isEmpty());
  }

  static List<String> loaderErrors(String name, String content) {
    try {
      ExperimentLoader.load(name, content);
      return List.of();
    } catch (ExperimentException e) {
      return e.problems().stream().map(Problem::toString).toList();
    }
  }

  private static JsonNode tree(String name, String content) {
    return SourceTree.read(name, content, READING, Problem::new).root();
  }

  /** A text that is not YAML is refused by an editor before any schema: a refusal here too. */
  static List<String> schemaErrors(String name, String content) {
    SourceTree<Problem> tree = SourceTree.read(name, content, READING, Problem::new);
    if (tree.malformed() != null) {
      return List.of(tree.malformed().toString());
    }
    return SCHEMA.validate(tree.root()).stream().map(Error::toString).toList();
  }
}
