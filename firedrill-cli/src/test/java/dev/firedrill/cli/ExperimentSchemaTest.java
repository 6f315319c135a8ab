package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.firedrill.experiment.ExperimentException;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.fault.FaultKinds;
import dev.firedrill.yaml.Problem;
import dev.firedrill.yaml.SourceTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

  /** A text that is not YAML is refused by an editor before any schema: a refusal here too. */
  static List<String> schemaErrors(String name, String content) {
    SourceTree<Problem> tree = SourceTree.read(name, content, READING, Problem::new);
    if (tree.malformed() != null) {
      return List.of(tree.malformed().toString());
    }
    return SCHEMA.validate(tree.root()).stream().map(Error::toString).toList();
  }
}
