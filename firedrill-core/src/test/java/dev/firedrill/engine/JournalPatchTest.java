package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.alerting.receiver.ReceiverConfig;
import dev.firedrill.alerting.receiver.WebhookReceiver;
import dev.firedrill.time.VirtualClock;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalPatchTest {

  @TempDir Path dir;

  private static Journal journal() {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    root.put("firedrill_journal", Journal.FORMAT);
    root.put("verdict", "held");
    return Journal.of(root);
  }

  @Test
  void theReceiversTallyAndTheMarkersNotesReachTheJournalOnDisk() throws IOException {
    JournalFile file = new JournalFile(dir.resolve("drill.json"));
    Journal journal = journal();
    JournalPatch patch =
        new JournalPatch(
            Optional.of(
                new JournalPatch.ReceiverTally(
                    3, 1, List.of("2026-11-29T10:00:01Z 401 missing bearer token"))),
            List.of("grafana: annotation refused (500)"));

    patch.applyTo(journal, file);

    ObjectNode written = (ObjectNode) file.read().json();
    assertThat(written.path("receiver").path("notifications").asInt()).isEqualTo(3);
    assertThat(written.path("receiver").path("rejected").asLong()).isEqualTo(1);
    assertThat(written.path("receiver").path("rejections").get(0).asText())
        .isEqualTo("2026-11-29T10:00:01Z 401 missing bearer token");
    assertThat(written.path("marker_notes").get(0).asText())
        .isEqualTo("grafana: annotation refused (500)");
    assertThat(written.path("verdict").asText()).isEqualTo("held");
  }

  @Test
  void nothingToAddLeavesTheJournalAsTheDrillWroteIt() {
    JournalFile file = new JournalFile(dir.resolve("drill.json"));
    Journal journal = journal();

    new JournalPatch(Optional.empty(), List.of()).applyTo(journal, file);

    assertThat(Files.exists(file.path())).isFalse();
    assertThat(journal.json().has("receiver")).isFalse();
    assertThat(journal.json().has("marker_notes")).isFalse();
  }

  @Test
  void theTallyOfAReceiverCountsWhatItTookAndSaysWhenAndWhyItRefused() throws Exception {
    VirtualClock clock = VirtualClock.at("2026-11-29T10:00:01Z");
    try (WebhookReceiver receiver = WebhookReceiver.start(ReceiverConfig.defaults(), clock)) {
      HttpResponse<String> refused =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(receiver.url())
                      .timeout(Duration.ofSeconds(10))
                      .POST(HttpRequest.BodyPublishers.ofString("[1, 2]"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(refused.statusCode()).isEqualTo(400);

      assertThat(JournalPatch.ReceiverTally.of(receiver))
          .isEqualTo(
              new JournalPatch.ReceiverTally(
                  0,
                  1,
                  List.of(
                      "2026-11-29T10:00:01Z 400 the body is not a JSON object (expected an Alertmanager webhook payload)")));
    }
  }
}
