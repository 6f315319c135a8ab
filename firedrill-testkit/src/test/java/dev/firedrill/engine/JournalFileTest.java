package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import dev.firedrill.testing.ScriptedDrill;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalFileTest {

  @TempDir Path dir;

  private Journal journal() {
    return Journal.start(
        new ScriptedDrill().experiment().build(), "drill.yaml", ScriptedDrill.START);
  }

  @Test
  void rewritesLeaveOneWholeFileAndNoTempFiles() throws IOException {
    JournalFile file = new JournalFile(dir.resolve("sub/drill.json"));
    Journal journal = journal();
    for (int i = 0; i < 20; i++) {
      journal.text("note", "event " + i);
      file.write(journal);
    }
    try (Stream<Path> files = Files.list(dir.resolve("sub"))) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("drill.json");
    }
    assertThat(file.read().json().get("note").asText()).isEqualTo("event 19");
  }

  @Test
  void valuesJsonCannotHoldAreWrittenAsPrometheusWritesThem() throws IOException {
    Journal journal = journal();
    journal.measurement(
        Phase.DURING,
        Duration.ofSeconds(5),
        new Measurement(
            Instant.EPOCH,
            List.of(
                new Reading(
                    "latency",
                    Reading.Status.BREACH,
                    OptionalDouble.of(Double.POSITIVE_INFINITY),
                    "<= 1",
                    "")),
            Optional.empty()));
    JournalFile file = new JournalFile(dir.resolve("drill.json"));
    file.write(journal);

    JsonNode reading = file.read().json().get("measurements").get(0).get("readings").get(0);
    assertThat(reading.get("value").asText()).isEqualTo("+Inf");
    assertThat(reading.get("status").asText()).isEqualTo("breach");
  }

  @Test
  void theJournalNamesWhereTheTokenComesFromNeverAValue() throws IOException {
    JournalFile file = new JournalFile(dir.resolve("drill.json"));
    file.write(journal());
    assertThat(Files.readString(file.path())).contains("\"prometheus_token\" : \"none\"");
  }

  @Test
  void aFileThatIsNotAJournalIsRefusedWithItsName() throws IOException {
    Path notJson = Files.writeString(dir.resolve("notes.txt"), "hello");
    Path otherJson = Files.writeString(dir.resolve("other.json"), "{\"a\": 1}");

    assertThatThrownBy(() -> new JournalFile(notJson).read())
        .hasMessageStartingWith(
            notJson + ": not a firedrill journal: expected JSON, Unrecognized token 'hello'");
    assertThatThrownBy(() -> new JournalFile(otherJson).read())
        .hasMessage(
            otherJson
                + ": not a firedrill journal: expected a JSON object with \"firedrill_journal\"");
    assertThatThrownBy(() -> new JournalFile(dir.resolve("missing.json")).read())
        .hasMessage(dir.resolve("missing.json") + ": no such file (expected a firedrill journal)");
  }
}
