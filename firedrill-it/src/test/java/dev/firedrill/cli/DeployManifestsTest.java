package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * deploy/kubernetes: every document parses as a Kubernetes object; the Role grants exactly what the
 * Kubernetes faults call; the CronJob runs as that ServiceAccount, takes its credentials from a
 * Secret, and its command line is one firedrill accepts.
 */
class DeployManifestsTest {

  private static final Path DEPLOY = Path.of("deploy/kubernetes");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /**
   * Each permission with the call in firedrill-kubernetes's sources that needs it: a permission no
   * code needs is too much, and a call without its permission fails in the cluster.
   */
  private static final List<String[]> NEEDED =
      List.of(
          new String[] {"/pods/list", "\\.pods\\(\\)[\\s\\S]*?\\.list\\("},
          new String[] {"/pods/get", "\\.pods\\(\\)[\\s\\S]*?\\.get\\("},
          new String[] {"/pods/delete", "\\.delete\\("},
          new String[] {"/pods/eviction/create", "\\.evict\\("},
          new String[] {"apps/replicasets/get", "\\.replicaSets\\(\\)"},
          new String[] {"apps/deployments/get", "\\.deployments\\(\\)"},
          new String[] {"apps/statefulsets/get", "\\.statefulSets\\(\\)"},
          new String[] {"apps/daemonsets/get", "\\.daemonSets\\(\\)"});

  private static List<JsonNode> documents(Path file) throws Exception {
    List<JsonNode> docs = new ArrayList<>();
    try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
      while (it.hasNext()) {
        JsonNode doc = it.next();
        if (doc != null && !doc.isNull() && !doc.isEmpty()) {
          docs.add(doc);
        }
      }
    }
    return docs;
  }

  private static List<JsonNode> all() throws Exception {
    List<JsonNode> docs = new ArrayList<>();
    try (Stream<Path> files = Files.list(DEPLOY)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
        docs.addAll(documents(file));
      }
    }
    return docs;
  }

  private static JsonNode kind(List<JsonNode> docs, String kind) {
    return docs.stream()
        .filter(d -> d.path("kind").asText().equals(kind))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void everyDocumentIsAKubernetesObjectWithANameInOneNamespace() throws Exception {
    List<JsonNode> docs = all();

    assertThat(docs)
        .extracting(d -> d.path("kind").asText())
        .containsExactlyInAnyOrder(
            "CronJob", "PersistentVolumeClaim", "ServiceAccount", "Role", "RoleBinding");
    for (JsonNode doc : docs) {
      assertThat(doc.path("apiVersion").asText()).as(doc.toString()).isNotEmpty();
      assertThat(doc.path("metadata").path("name").asText()).as(doc.toString()).isNotEmpty();
      assertThat(doc.path("metadata").path("namespace").asText()).isEqualTo("shop");
    }
  }

  @Test
  void theRoleGrantsExactlyWhatTheKubernetesFaultsCall() throws Exception {
    StringBuilder sources = new StringBuilder();
    try (Stream<Path> files = Files.walk(Path.of("firedrill-kubernetes/src/main/java"))) {
      for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        sources.append(Files.readString(file)).append('\n');
      }
    }
    Set<String> granted = new TreeSet<>();
    for (JsonNode rule : kind(all(), "Role").path("rules")) {
      for (JsonNode group : rule.path("apiGroups")) {
        for (JsonNode resource : rule.path("resources")) {
          for (JsonNode verb : rule.path("verbs")) {
            granted.add(group.asText() + "/" + resource.asText() + "/" + verb.asText());
          }
        }
      }
    }
    Set<String> needed = new TreeSet<>();
    for (String[] permission : NEEDED) {
      assertThat(java.util.regex.Pattern.compile(permission[1]).matcher(sources).find())
          .as("a call needing %s in firedrill-kubernetes", permission[0])
          .isTrue();
      needed.add(permission[0]);
    }
    // Chaos Mesh objects are created, read, listed and deleted through the generic client
    assertThat(sources.toString()).contains("genericKubernetesResources", ".create(");
    for (String kind :
        List.of("podchaos", "networkchaos", "stresschaos", "httpchaos", "iochaos", "timechaos")) {
      for (String verb : List.of("create", "get", "list", "delete")) {
        needed.add("chaos-mesh.org/" + kind + "/" + verb);
      }
    }
    assertThat(granted).isEqualTo(needed);
  }

  @Test
  void theCronJobRunsASuiteAsTheFaultsServiceAccountWithCredentialsFromASecret() throws Exception {
    List<JsonNode> docs = all();
    JsonNode job = kind(docs, "CronJob").path("spec");
    JsonNode pod = job.path("jobTemplate").path("spec").path("template").path("spec");
    JsonNode container = pod.path("containers").get(0);

    assertThat(job.path("concurrencyPolicy").asText()).isEqualTo("Forbid");
    assertThat(pod.path("serviceAccountName").asText())
        .isEqualTo(kind(docs, "ServiceAccount").path("metadata").path("name").asText());
    List<String> args = new ArrayList<>();
    container.path("args").forEach(a -> args.add(a.asText()));
    assertThat(args.get(0)).isEqualTo("suite");
    // the exact command line parses as firedrill's: every option exists and takes its value
    CommandLine.ParseResult parsed = Main.commandLine().parseArgs(args.toArray(String[]::new));
    assertThat(parsed.subcommand().commandSpec().name()).isEqualTo("suite");
    assertThat(parsed.subcommand().matchedOptionValue("--journals", (Object) null)).isNotNull();
    // the password is a mounted file and the user a secretKeyRef: no credential in the manifest
    assertThat(container.path("env").toString())
        .contains("secretKeyRef")
        .contains("FIREDRILL_HISTORY_PASSWORD_FILE");
    assertThat(Files.readString(DEPLOY.resolve("cronjob.yaml")))
        .doesNotContainPattern("(?i)password:\\s*\\S");
    assertThat(args).noneMatch(a -> a.contains("@") || a.toLowerCase().contains("password="));
  }
}
