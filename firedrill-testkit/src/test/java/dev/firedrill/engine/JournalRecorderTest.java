package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.testing.ScriptedFault;
import dev.firedrill.testing.ScriptedPrometheus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal as the first observer of the drill's milestones: the same steps the console shows, on
 * disk as they happen.
 */
class JournalRecorderTest {

  @TempDir Path dir;

  private final ScriptedDrill drill = new ScriptedDrill();

  @Test
  void theJournalsEventsAreTheConsolesLinesAndEachMeasurementIsJournaledOnce() {
    drill.fault("burn");
    drill
        .prometheus()
        .answer(ScriptedDrill.ERROR_RATIO, t -> ScriptedPrometheus.value(t >= 15 ? 0.2 : 0.001))
        .answer(
            ScriptedDrill.GUARD_ERROR_RATIO, t -> ScriptedPrometheus.value(t >= 15 ? 0.2 : 0.001));

    DrillResult result = drill.run();

    List<String> journaled = new ArrayList<>();
    for (JsonNode event : result.journal().json().get("events")) {
      journaled.add(
          "+"
              + String.format(Locale.ROOT, "%.1fs", event.get("offset_s").asDouble())
              + " "
              + event.get("phase").asText()
              + " "
              + event.get("text").asText());
    }
    assertThat(journaled).isEqualTo(drill.lines());
    assertThat(drill.lines())
        .containsOnlyOnce("+15.0s abort " + result.journal().json().get("abort_reason").asText());
    assertThat(result.journal().json().get("measurements"))
        .hasSize(drill.milestones(Milestone.Measured.class).size());
    assertThat(result.journal().json().get("aborted_at").asText())
        .isEqualTo("2026-11-29T10:00:15Z");
    assertThat(result.journal().json().get("rollback_done_at").asText())
        .isEqualTo("2026-11-29T10:00:15Z");
  }

  @Test
  void aFaultIsOnDiskAsNeedingARevertBeforeAnyoneHearsItsInjectionStart() throws IOException {
    drill.fault("burn");
    JournalFile file = new JournalFile(dir.resolve("drill.json"));
    List<JsonNode> seenAtInjecting = new ArrayList<>();
    DrillObserver reader =
        milestone -> {
          if (milestone instanceof Milestone.FaultInjecting) {
            try {
              seenAtInjecting.add(file.read().json().get("faults").get(0).deepCopy());
            } catch (IOException e) {
              throw new IllegalStateException(e);
            }
          }
        };

    drill.journal(file).observer(reader).run();

    assertThat(seenAtInjecting).hasSize(1);
    assertThat(seenAtInjecting.get(0).get("injected").asBoolean()).isTrue();
    assertThat(seenAtInjecting.get(0).get("reverted").asBoolean()).isFalse();
    assertThat(file.read().json().get("verdict").asText()).isEqualTo("held");
  }

  @Test
  void aJournalThatCannotBeWrittenIsSaidOnceAndTheDrillGoesOn() throws IOException {
    ScriptedFault fault = drill.fault("burn");
    Path notADirectory = Files.writeString(dir.resolve("file"), "");

    DrillResult result = drill.journal(new JournalFile(notADirectory.resolve("drill.json"))).run();

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    assertThat(fault.applied()).isFalse();
    assertThat(drill.lines())
        .filteredOn(line -> line.contains("journal: "))
        .singleElement()
        .asString()
        .startsWith(
            "+0.0s plan journal: "
                + notADirectory.resolve("drill.json")
                + ": cannot write the journal: ");
    assertThat(drill.milestones(Milestone.JournalUnwritable.class)).hasSize(1);
    assertThat(result.journal().json().get("events").toString())
        .doesNotContain("cannot write the journal");
  }
}
