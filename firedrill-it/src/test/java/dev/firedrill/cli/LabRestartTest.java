package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.lab.stack.LabPorts;
import dev.firedrill.lab.stack.LabStack;
import dev.firedrill.lab.stack.TempDirs;
import dev.firedrill.testing.RequiredBinary;
import dev.firedrill.time.Clock;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code lab up} after {@code lab down} in the same directory: {@code lab down} leaves the copied
 * rule files behind, and the lab must start again over them, with today's rules.
 */
class LabRestartTest {

  private final Path labDir = TempDirs.create("firedrill-lab-restart-");

  @AfterEach
  void removeLab() {
    TempDirs.delete(labDir);
  }

  @Test
  void aLabStartsAgainInTheDirectoryOfAStoppedOneAndDropsRuleFilesDeletedSince() throws Exception {
    Path prometheus = RequiredBinary.find("prometheus", "FIREDRILL_PROMETHEUS", "prometheus");
    Path alertmanager =
        RequiredBinary.find(
            "prometheus-alertmanager", "FIREDRILL_ALERTMANAGER", "prometheus-alertmanager");
    Path rules = Files.createDirectories(labDir.resolve("prometheus/alert-rules"));
    Files.writeString(labDir.resolve("prometheus/recording-rules.yml"), "groups: []\n");
    Files.writeString(rules.resolve("lab-alerts.yml"), "groups: []\n");
    Path stale = Files.writeString(rules.resolve("deleted-since.yml"), "groups: []\n");

    try (LabStack again = start(prometheus, alertmanager)) {
      assertThat(stale).doesNotExist();
      assertThat(rules.resolve("lab-alerts.yml"))
          .hasSameTextualContentAs(Path.of("alert-rules/lab-alerts.yml"));
      HttpResponse<String> ready =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(again.prometheusUrl().resolve("/-/ready"))
                      .timeout(Duration.ofSeconds(5))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(ready.statusCode()).isEqualTo(200);
    }
  }

  private LabStack start(Path prometheus, Path alertmanager) throws Exception {
    return LabStack.start(
        new LabStack.Settings(
            LabPorts.free(),
            Path.of("fixtures/lab"),
            Path.of("alert-rules"),
            labDir,
            LabStackOptions.firedrillCommand(),
            20,
            Duration.ofMinutes(10),
            Optional.empty(),
            false),
        prometheus,
        alertmanager,
        Clock.system(),
        line -> {});
  }
}
