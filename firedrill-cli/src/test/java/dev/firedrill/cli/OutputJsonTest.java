package dev.firedrill.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code --output json} document parses, and its fields are exactly those docs/output-json.md
 * lists for it (top level, and the first element of each documented list or object).
 */
class OutputJsonTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private WireMockServer prometheus;

  @BeforeEach
  void start() {
    // A Prometheus whose every query answers one sample of 0.001; its other endpoints answer 404.
    prometheus = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());
    prometheus.start();
    prometheus.stubFor(
        any(urlPathEqualTo("/api/v1/query"))
            .willReturn(
                aResponse()
                    .withHeader("Content-Type", "application/json")
                    .withBody(
                        "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
                            + "[{\"metric\":{},\"value\":[1700000000,\"0.001\"]}]}}")));
  }

  @AfterEach
  void stop() {
    prometheus.stop();
  }

  /** The outage fixture against the stub: no lab needed, nothing else on the machine touched. */
  private Path outage() throws IOException {
    String url = "http://127.0.0.1:" + prometheus.port();
    return Files.writeString(
        dir.resolve("payments-outage.yaml"),
        Files.readString(Path.of("fixtures/experiments/payments-outage.yaml"))
            .replace("http://127.0.0.1:19090", url)
            .replace("http://127.0.0.1:19093", url));
  }

  @Test
  void validate() throws IOException {
    JsonNode doc = document(CliRun.of("validate", outage().toString(), "--output", "json"), 0);
    assertDocumented("validate", doc);
    assertThat(doc.get("valid").asBoolean()).isTrue();
    assertThat(doc.get("experiment").asText()).isEqualTo("payments-outage");
  }

  @Test
  void validateOfABadFileIsADocumentWithItsErrors() {
    JsonNode doc =
        document(
            CliRun.of("validate", "fixtures/bad/bare-percent.yaml", "--output", "json"),
            ExitCode.INVALID);
    assertThat(doc.get("valid").asBoolean()).isFalse();
    assertThat(doc.get("errors").get(0).asText()).contains("/method/faults/0/percent");
  }

  @Test
  void plan() throws IOException {
    JsonNode doc = document(CliRun.of("plan", outage().toString(), "--output", "json"), 0);
    assertDocumented("plan", doc);
    assertThat(doc.get("faults").get(0).get("kind").asText()).isEqualTo("http-error");
    assertThat(doc.get("faults").get(0).get("actions")).isNotEmpty();
    assertThat(doc.get("executed").asBoolean()).isFalse();
  }

  @Test
  void measure() throws IOException {
    // 0.001 is a fine error ratio and far too few completed orders: one breach, exit 1.
    JsonNode doc =
        document(CliRun.of("measure", outage().toString(), "--output", "json"), ExitCode.DEVIATED);
    assertDocumented("measure", doc);
    assertThat(doc.get("status").asText()).isEqualTo("breach");
    assertThat(doc.get("readings").get(1).get("status").asText()).isEqualTo("breach");
    assertThat(doc.get("readings").get(0).get("value").asDouble()).isEqualTo(0.001);
  }

  @Test
  void routes() {
    JsonNode doc =
        document(
            CliRun.of(
                "routes",
                "fixtures/lab/alertmanager.yml",
                "alertname=CheckoutErrorBudgetBurn",
                "service=checkout",
                "--output",
                "json"),
            0);
    assertDocumented("routes", doc);
    assertThat(doc.get("receivers")).isNotEmpty();
  }

  @Test
  void rulesLint() {
    CliRun run = CliRun.of("rules", "lint", "alert-rules", "--output", "json");
    JsonNode doc = document(run, run.exit());
    assertThat(run.exit()).isIn(0, 1);
    assertDocumented("rules lint", doc);
    assertThat(doc.get("files").asInt()).isPositive();
  }

  @Test
  void history() {
    String store = dir.resolve("history.sqlite").toString();
    CliRun imported =
        CliRun.of(
            "history",
            "--history",
            store,
            "--import",
            "fixtures/journals/payments-outage.json",
            "--check",
            "--output",
            "json");
    JsonNode doc = document(imported, imported.exit());
    assertThat(imported.err()).contains("imported");
    assertDocumented("history", doc);
    assertThat(doc.get("runs")).isNotEmpty();
    assertThat(doc.get("check").get("runs").asInt()).isPositive();
  }

  @Test
  void coverage() {
    JsonNode doc =
        document(
            CliRun.of(
                "coverage",
                "--rules",
                "alert-rules/lab-alerts.yml",
                "--experiments",
                "fixtures/experiments/payments-outage.yaml",
                "--history",
                dir.resolve("history.sqlite").toString(),
                "--output",
                "json"),
            0);
    assertDocumented("coverage", doc);
    assertThat(doc.get("rows")).isNotEmpty();
    assertThat(doc.get("never").asInt()).isEqualTo(doc.get("alerts").asInt());
  }

  private static JsonNode document(CliRun run, int exit) {
    assertThat(run.exit()).as(run.describe()).isEqualTo(exit);
    try {
      return JSON.readTree(run.out());
    } catch (IOException e) {
      throw new AssertionError("stdout is not one JSON document: " + run.describe(), e);
    }
  }

  private static void assertDocumented(String command, JsonNode doc) {
    Map<String, Set<String>> documented = documented(command);
    assertThat(doc.get("command").asText()).isEqualTo(command);
    assertThat(names(doc)).as(command + ": top-level fields").isEqualTo(documented.keySet());
    documented.forEach(
        (field, nested) -> {
          JsonNode value = doc.get(field);
          JsonNode first = value.isArray() && !value.isEmpty() ? value.get(0) : value;
          if (!nested.isEmpty() && first.isObject()) {
            assertThat(names(first)).as(command + ": fields of " + field).isEqualTo(nested);
          }
        });
  }

  private static Set<String> names(JsonNode node) {
    Set<String> names = new LinkedHashSet<>();
    node.fieldNames().forEachRemaining(names::add);
    return Set.copyOf(names);
  }

  private static final Pattern FIELD = Pattern.compile("^( *)- `([a-z_]+)`");

  /** The fields docs/output-json.md lists under {@code ## command}, each with its nested ones. */
  static Map<String, Set<String>> documented(String command) {
    List<String> lines;
    try {
      lines = Files.readAllLines(Path.of("docs/output-json.md"));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    int start = lines.indexOf("## " + command);
    assertThat(start).as("docs/output-json.md has a section ## " + command).isNotNegative();
    Map<String, List<String>> fields = new LinkedHashMap<>();
    String last = null;
    for (String line : lines.subList(start + 1, lines.size())) {
      if (line.startsWith("## ")) {
        break;
      }
      Matcher m = FIELD.matcher(line);
      if (!m.find()) {
        continue;
      }
      if (m.group(1).isEmpty()) {
        last = m.group(2);
        fields.put(last, new ArrayList<>());
      } else {
        fields.get(last).add(m.group(2));
      }
    }
    Map<String, Set<String>> result = new LinkedHashMap<>();
    fields.forEach((name, nested) -> result.put(name, Set.copyOf(nested)));
    return result;
  }
}
