package dev.firedrill.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalReaderTest {

  @TempDir Path dir;

  @Test
  void readsTheAlertTimesAndTakesActiveAtFromTheDetectEvent() throws IOException {
    DrillRecord record = JournalReader.read(Journals.path("payments-outage"));

    DrillRecord.Alert pending = record.detection().orElseThrow().alerts().get(1);
    assertThat(pending.describe()).isEqualTo("CheckoutOrdersPending");
    assertThat(pending.pendingS()).isEqualTo(OptionalDouble.of(0.7));
    assertThat(pending.timeToDetectS()).isEqualTo(OptionalDouble.of(5.7));
    DrillRecord.Alert burn = record.detection().orElseThrow().alerts().get(0);
    assertThat(burn.describe()).isEqualTo("CheckoutErrorBudgetBurn{service=\"checkout\"}");
    assertThat(burn.notifiedS().getAsDouble())
        .isCloseTo(1.729, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(record.experiment().slis())
        .extracting(DrillRecord.Sli::name)
        .containsExactly("checkout_error_ratio", "orders_completed_ratio");
    assertThat(record.samples()).hasSize(8);
  }

  @Test
  void aMissingFileIsOneLineNamingIt() {
    Path missing = dir.resolve("none.journal.json");
    assertThatThrownBy(() -> JournalReader.read(missing))
        .isInstanceOf(IOException.class)
        .hasMessage(missing + ": no such file (expected a firedrill journal)");
  }

  @Test
  void aFieldOfTheWrongKindIsNamedWithWhatWasExpected() throws IOException {
    ObjectNode journal = Journals.tree("payments-latency");
    ((ObjectNode) journal.at("/measurements/2")).put("at", "yesterday");
    Path file = Files.writeString(dir.resolve("bad.json"), journal.toString());

    assertThatThrownBy(() -> JournalReader.read(file))
        .isInstanceOf(IOException.class)
        .hasMessage(
            file
                + ": not a firedrill journal: expected measurements[].at (an RFC 3339 time), got \"yesterday\"");
  }

  @Test
  void aJournalWithoutItsExperimentIsRefused() throws IOException {
    Path file =
        Files.writeString(dir.resolve("bare.json"), "{\"firedrill_journal\": 1, \"events\": []}");

    assertThatThrownBy(() -> JournalReader.read(file))
        .isInstanceOf(IOException.class)
        .hasMessage(file + ": not a firedrill journal: expected experiment (an object)");
  }

  @Test
  void aDrillKilledBeforeItsVerdictReadsAsUnfinished() throws IOException {
    ObjectNode journal = Journals.tree("payments-latency");
    journal.remove(java.util.List.of("verdict", "reason", "rollback_ok", "finished_at"));

    DrillRecord record = Journals.record(journal);

    assertThat(record.verdict()).isEqualTo("unfinished");
    assertThat(record.reason()).isEqualTo("the journal has no verdict: the drill did not finish");
  }
}
