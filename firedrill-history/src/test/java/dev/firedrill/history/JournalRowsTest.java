package dev.firedrill.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Real journals from the demo drills, read into history rows. */
class JournalRowsTest {

  @Test
  void theOutageDrillGivesOneRowPerExpectedAlert() throws Exception {
    List<DetectionRecord> rows = JournalRows.of(Journals.outage(), "journals/payments-outage.json");

    String run = "payments-outage@2026-11-29T21:20:02.362825345Z";
    Instant injected = Instant.parse("2026-11-29T21:20:02.606Z");
    assertThat(rows)
        .containsExactly(
            new DetectionRecord(
                run,
                injected,
                "payments-outage",
                "CheckoutErrorBudgetBurn",
                "CheckoutErrorBudgetBurn{service=\"checkout\"}",
                "firing",
                true,
                Optional.of(Duration.ofMillis(700)),
                Optional.of(Duration.ofMillis(1029)),
                List.of("team-checkout"),
                Optional.of("team-checkout"),
                "yes",
                true,
                "aborted",
                "journals/payments-outage.json"),
            new DetectionRecord(
                run,
                injected,
                "payments-outage",
                "CheckoutOrdersPending",
                "CheckoutOrdersPending",
                "firing",
                true,
                Optional.of(Duration.ofMillis(5700)),
                Optional.empty(),
                List.of("team-payments"),
                Optional.of("team-payments"),
                "yes",
                true,
                "aborted",
                "journals/payments-outage.json"),
            new DetectionRecord(
                run,
                injected,
                "payments-outage",
                "PaymentsDown",
                "PaymentsDown",
                "silent",
                false,
                Optional.empty(),
                Optional.empty(),
                List.of(),
                Optional.empty(),
                "-",
                true,
                "aborted",
                "journals/payments-outage.json"));
  }

  @Test
  void aJournalWrittenBeforeTheReceiversFieldsReadsWithoutReceivers() throws Exception {
    List<DetectionRecord> rows = JournalRows.of(Journals.latency(), "latency.json");

    assertThat(rows)
        .extracting(
            DetectionRecord::alertKey,
            DetectionRecord::expect,
            DetectionRecord::fired,
            DetectionRecord::receivers,
            DetectionRecord::expectedReceiver)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "CheckoutErrorBudgetBurn", "silent", false, List.of(), Optional.empty()),
            org.assertj.core.groups.Tuple.tuple(
                "CheckoutOrdersPending", "silent", false, List.of(), Optional.empty()));
  }

  @Test
  void anAlertTheDrillCouldNotSeeIsNoRowOfItsHistory() throws Exception {
    ObjectNode journal = (ObjectNode) Journals.outage().deepCopy();
    ((ObjectNode) journal.at("/detection/alerts/1"))
        .put("fired", false)
        .put("held", false)
        .put("unknown", true)
        .put("reason", "unknown: 3 of 3 reads of the alerts failed");

    assertThat(JournalRows.of(journal, "j.json"))
        .extracting(DetectionRecord::alert)
        .containsExactly("CheckoutErrorBudgetBurn", "PaymentsDown");
  }

  @Test
  void aJournalWithoutDetectionHasNoRows() throws Exception {
    ObjectNode journal = (ObjectNode) Journals.outage().deepCopy();
    journal.remove("detection");

    assertThat(JournalRows.of(journal, "j.json")).isEmpty();
  }

  @Test
  void somethingElseIsRefusedByName() {
    ObjectNode notAJournal =
        new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode().put("hello", 1);
    ObjectNode noStart = (ObjectNode) Journals.outage().deepCopy();
    noStart.remove("started_at");

    assertThatThrownBy(() -> JournalRows.of(notAJournal, "x.json"))
        .hasMessage("x.json: not a firedrill journal (expected a firedrill_journal field)");
    assertThatThrownBy(() -> JournalRows.of(noStart, "y.json"))
        .hasMessage("y.json: /started_at: missing; a firedrill journal has it");
  }
}
