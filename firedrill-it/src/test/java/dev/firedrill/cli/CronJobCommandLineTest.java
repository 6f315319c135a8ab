package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.firedrill.testing.FiredrillJar;
import dev.firedrill.testing.PaymentsOutageDrill;
import dev.firedrill.testing.RealLab;
import dev.firedrill.testing.RealPostgres;
import dev.firedrill.testing.Stacks;
import dev.firedrill.time.Clock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CronJob's exact command line (deploy/kubernetes/cronjob.yaml's args, after the Dockerfile's
 * {@code java -jar}), run by the packaged jar against the lab on the stable pair, with the history
 * in a real PostgreSQL: each volume the Job mounts is a temp directory here (the suite's ConfigMap,
 * the reports' volume, the Secret's password file), the history Service's URL is this PostgreSQL,
 * and the Secret's user is the environment variable the manifest names. The Job's log must name the
 * report files, which must be on the reports' volume, and the run must be in the history.
 */
class CronJobCommandLineTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Path DEPLOY = Path.of("deploy/kubernetes");

  @TempDir Path dir;

  @Test
  void theCronJobsCommandLineRunsTheSuiteAndItsLogNamesTheReportsOnTheVolume() throws Exception {
    JsonNode container = container();
    List<String> args = new ArrayList<>();
    container.path("args").forEach(a -> args.add(a.asText()));
    assertThat(entrypoint()).as("the image runs the jar").endsWith("-jar");

    // the pod's volumes, here
    Map<String, Path> mounts = new LinkedHashMap<>();
    for (JsonNode mount : container.path("volumeMounts")) {
      mounts.put(
          mount.path("mountPath").asText(),
          Files.createDirectories(dir.resolve(mount.path("name").asText())));
    }
    Map<String, String> env = new LinkedHashMap<>();
    try (RealPostgres postgres = RealPostgres.start(Clock.system());
        RealLab lab =
            RealLab.start(Stacks.stable(), "cronjob", LabStackOptions.firedrillCommand())) {
      String history = postgres.newSchema();
      for (JsonNode variable : container.path("env")) {
        String name = variable.path("name").asText();
        if (variable.path("valueFrom").has("secretKeyRef")) {
          assertThat(variable.path("valueFrom").path("secretKeyRef").path("key").asText())
              .isEqualTo("user");
          env.put(name, RealPostgres.USER);
        } else {
          env.put(name, local(variable.path("value").asText(), mounts));
        }
      }
      // the Secret's password, as the volume holds it (the test's PostgreSQL trusts its user)
      Files.writeString(Path.of(env.get("FIREDRILL_HISTORY_PASSWORD_FILE")), "unused\n");

      Path suite = Path.of(local(args.get(1), mounts));
      Files.writeString(
          suite.resolveSibling("payments-outage.yaml"),
          lab.ports()
              .rewrite(
                  PaymentsOutageDrill.experiment(
                      "cronjob-payments",
                      "Payments answering 503 pages checkout's team",
                      PaymentsOutageDrill.PAGE,
                      Duration.ofSeconds(3))));
      Files.writeString(
          suite, "id: quarterly\ncooldown: 1m\nexperiments: [payments-outage.yaml]\n");

      List<String> command = new ArrayList<>();
      for (String arg : args) {
        command.add(
            arg.startsWith("jdbc:postgresql://firedrill-history:5432/firedrill")
                ? history
                : local(arg, mounts));
      }
      Path cwd = Files.createDirectories(dir.resolve("workdir"));
      FiredrillJar.Run job =
          FiredrillJar.run(cwd, Duration.ofSeconds(90), env, command.toArray(String[]::new));

      // payments is down: the steady state breaks (deviated, exit 1), the page held
      assertThat(job.exit()).as(job.output()).isEqualTo(1);
      Path reports = mounts.get("/var/lib/firedrill/reports");
      List<Path> named = new ArrayList<>();
      Matcher report =
          Pattern.compile("(?m)^(?:suite report|report|journal): (\\S+)$").matcher(job.output());
      while (report.find()) {
        named.add(Path.of(report.group(1)));
      }
      assertThat(named.stream().map(p -> p.getFileName().toString()))
          .as(job.output())
          .anyMatch(n -> n.matches("cronjob-payments-.*\\.json"))
          .anyMatch(n -> n.matches("cronjob-payments-.*\\.html"))
          .anyMatch(n -> n.matches("quarterly-.*\\.html"))
          .anyMatch(n -> n.matches("quarterly-.*\\.md"))
          .anyMatch(n -> n.matches("quarterly-.*\\.xml"));
      for (Path path : named) {
        Path absolute = path.isAbsolute() ? path : cwd.resolve(path);
        assertThat(absolute).as("a path the log names").isRegularFile();
        assertThat(absolute.toAbsolutePath().normalize()).startsWith(reports.toAbsolutePath());
      }
      assertThat(cwd).isEmptyDirectory(); // nothing written outside the volumes
      assertThat(job.output()).contains("suite quarterly: exit 1").doesNotContain("unused");

      FiredrillJar.Run recorded =
          FiredrillJar.run(
              cwd,
              Duration.ofSeconds(30),
              env,
              "history",
              "--history",
              history,
              "--alert",
              "CheckoutErrorBudgetBurn",
              "--format",
              "json");
      assertThat(recorded.exit()).as(recorded.output()).isZero();
      // the run's output is stdout and stderr together; the document starts a line with {
      String document = recorded.output().substring(recorded.output().indexOf("\n{") + 1);
      JsonNode runs = new ObjectMapper().readTree(document).path("runs");
      assertThat(runs).hasSize(1);
      assertThat(runs.get(0).path("experiment").asText()).isEqualTo("cronjob-payments");
      assertThat(runs.get(0).path("fired").asBoolean()).isTrue();
    }
  }

  /** A path of the pod's file system as the temp directory standing for its volume. */
  private static String local(String path, Map<String, Path> mounts) {
    for (Map.Entry<String, Path> mount : mounts.entrySet()) {
      if (path.equals(mount.getKey()) || path.startsWith(mount.getKey() + "/")) {
        return mount.getValue() + path.substring(mount.getKey().length());
      }
    }
    return path;
  }

  private static JsonNode container() throws Exception {
    try (MappingIterator<JsonNode> docs =
        YAML.readerFor(JsonNode.class).readValues(DEPLOY.resolve("cronjob.yaml").toFile())) {
      while (docs.hasNext()) {
        JsonNode doc = docs.next();
        if (doc.path("kind").asText().equals("CronJob")) {
          return doc.at("/spec/jobTemplate/spec/template/spec/containers/0");
        }
      }
    }
    throw new AssertionError("deploy/kubernetes/cronjob.yaml has no CronJob");
  }

  /** The Dockerfile's ENTRYPOINT up to {@code -jar}, in its exec form. */
  private static List<String> entrypoint() throws Exception {
    for (String line : Files.readAllLines(DEPLOY.resolve("Dockerfile"))) {
      if (line.startsWith("ENTRYPOINT ")) {
        List<String> words = new ArrayList<>();
        new ObjectMapper()
            .readTree(line.substring("ENTRYPOINT ".length()))
            .forEach(w -> words.add(w.asText()));
        assertThat(words.get(0)).isEqualTo("java");
        return words.subList(0, words.indexOf("-jar") + 1);
      }
    }
    throw new AssertionError("the Dockerfile has no ENTRYPOINT");
  }
}
