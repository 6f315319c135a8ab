package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code firedrill history} on a SQLite file, fed with the demo's real journals and with later runs
 * made from them: the table, {@code --import}, and {@code --check}'s exit codes and lines.
 */
class HistoryCommandTest {

  private static final Path OUTAGE = Path.of("fixtures/journals/payments-outage.json");
  private static final Path LATENCY =
      Path.of("fixtures/journals/payments-latency-before-receivers.json");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private Path store() {
    return dir.resolve("history.sqlite");
  }

  private CliRun history(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "history";
    all[1] = "--history";
    all[2] = store().toString();
    System.arraycopy(args, 0, all, 3, args.length);
    return CliRun.of(all);
  }

  /** The outage drill again, {@code days} later, changed by {@code edit} on its detection rows. */
  private Path laterOutage(int days, String name, java.util.function.Consumer<ObjectNode[]> edit)
      throws Exception {
    ObjectNode journal = (ObjectNode) JSON.readTree(OUTAGE.toFile());
    journal.put("started_at", "2026-12-0" + days + "T09:00:00Z");
    journal.put("injected_at", "2026-12-0" + days + "T09:00:01Z");
    ObjectNode[] rows = new ObjectNode[3];
    for (int i = 0; i < 3; i++) {
      rows[i] = (ObjectNode) journal.path("detection").path("alerts").get(i);
    }
    edit.accept(rows);
    return Files.writeString(dir.resolve(name), JSON.writeValueAsString(journal));
  }

  @Test
  void importAddsEachRunOnceAndSaysSo() {
    CliRun first = history("--import", OUTAGE.toString(), LATENCY.toString());
    CliRun again = history("--import", OUTAGE.toString());

    assertThat(first.exit()).as(first.describe()).isEqualTo(0);
    assertThat(first.out())
        .isEqualTo("imported 5 detection rows from 2 journals into " + store() + "\n");
    assertThat(again.exit()).as(again.describe()).isEqualTo(0);
    assertThat(again.out())
        .isEqualTo(
            "imported 0 detection rows from 1 journal into " + store() + " (3 already there)\n");
  }

  @Test
  void aSimulationIsKeptOutOfTheHistoryUnlessAskedAndThenMarked() throws Exception {
    ObjectNode journal = (ObjectNode) JSON.readTree(OUTAGE.toFile());
    journal.putObject("simulation").put("rate_per_second", 20);
    Path simulated = Files.writeString(dir.resolve("sim.json"), JSON.writeValueAsString(journal));

    CliRun skipped = history("--import", simulated.toString(), LATENCY.toString());
    assertThat(skipped.exit()).as(skipped.describe()).isEqualTo(0);
    assertThat(skipped.out())
        .isEqualTo(
            "skipped "
                + simulated
                + ": a simulation by firedrill simulate, not a run (--include-simulated imports"
                + " it, marked simulated)\n"
                + "imported 2 detection rows from 1 journal into "
                + store()
                + "\n");

    CliRun included = history("--import", simulated.toString(), "--include-simulated");
    assertThat(included.out())
        .isEqualTo("imported 3 detection rows from 1 journal into " + store() + "\n");
    assertThat(history("--alert", "CheckoutErrorBudgetBurn").out()).contains("(simulated)");
  }

  @Test
  void theTableShowsEachAlertOverItsRunsOldestFirst() throws Exception {
    Path misrouted =
        laterOutage(
            1,
            "misrouted.json",
            rows -> {
              rows[0]
                  .put("time_to_detect_s", 1.2)
                  .put("receiver", "NO")
                  .put("held", false)
                  .putArray("receivers")
                  .add("default");
            });
    history("--import", misrouted.toString(), OUTAGE.toString());

    CliRun run = history("--alert", "CheckoutErrorBudgetBurn");

    assertThat(run.exit()).as(run.describe()).isEqualTo(0);
    assertThat(run.out())
        .isEqualTo(
            """
        CheckoutErrorBudgetBurn{service="checkout"}
          date (UTC)        experiment       fired  detect  notify  routing                           result
          2026-11-29 21:20  payments-outage  yes    0.7s    1.0s    team-checkout                     held
          2026-12-01 09:00  payments-outage  yes    1.2s    1.0s    default (expected team-checkout)  FAILED
        """);
    assertThat(run.err()).isEmpty();
  }

  @Test
  void checkWithNoHistoryIsInconclusive() {
    CliRun run = history("--check");

    assertThat(run.exit()).as(run.describe()).isEqualTo(4);
    assertThat(run.out()).isEqualTo("no detection history in " + store() + "; nothing to check\n");
  }

  @Test
  void checkWithSingleRunsHasNothingToCompare() {
    history("--import", OUTAGE.toString(), LATENCY.toString());

    CliRun run = history("--check");

    assertThat(run.exit()).as(run.describe()).isEqualTo(0);
    assertThat(run.out())
        .isEqualTo(
            "no regression in 5 alerts over 2 runs (5 with a single run, nothing to "
                + "compare yet)\n");
  }

  @Test
  void checkPassesASteadyHistory() throws Exception {
    Path later = laterOutage(1, "later.json", rows -> rows[1].put("time_to_detect_s", 7.6));
    history("--import", OUTAGE.toString(), later.toString());

    CliRun run = history("--check");

    assertThat(run.exit()).as(run.describe()).isEqualTo(0);
    assertThat(run.out()).isEqualTo("no regression in 3 alerts over 2 runs\n");
  }

  @Test
  void checkFailsOnAnAlertThatStoppedFiringAndOneThatGrewSlower() throws Exception {
    Path later =
        laterOutage(
            1,
            "later.json",
            rows -> {
              rows[0].put("time_to_detect_s", 2.8);
              rows[1]
                  .put("fired", false)
                  .put("held", false)
                  .remove(java.util.List.of("time_to_detect_s", "receivers"));
            });
    history("--import", OUTAGE.toString(), later.toString());

    CliRun run = history("--check");
    CliRun lenient = history("--check", "--tolerance", "5s", "--alert", "CheckoutErrorBudgetBurn");

    assertThat(run.exit()).as(run.describe()).isEqualTo(1);
    assertThat(run.out())
        .isEqualTo(
            """
        REGRESSION CheckoutErrorBudgetBurn{service="checkout"} in payments-outage: time to detect grew: 2.8s in \
        the run of 2026-12-01 09:00, over the 2.7s allowed: median 0.7s of 1 earlier run plus 50% or 2s, \
        whichever is larger
        REGRESSION CheckoutOrdersPending in payments-outage: stopped firing: did not fire in the run of \
        2026-12-01 09:00; fired in 1 of 1 earlier run
        """);
    assertThat(lenient.exit()).as(lenient.describe()).isEqualTo(0);
    assertThat(lenient.out()).isEqualTo("no regression in 1 alert over 2 runs\n");
  }

  @Test
  void aBadJournalIsOneLineAndImportsNothing() throws Exception {
    Path bad = Files.writeString(dir.resolve("bad.json"), "{\"firedrill_journal\": 1}");

    CliRun run = history("--import", OUTAGE.toString(), bad.toString());
    CliRun after = history();

    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(bad + ": /experiment/id: missing; a firedrill journal has it\n");
    assertThat(after.out()).isEqualTo("no detection history in " + store() + "\n");
  }

  @Test
  void aBadToleranceIsOneLine() {
    CliRun run = history("--check", "--tolerance", "fast");

    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "firedrill history: --tolerance \"fast\": expected a percentage (50%), a "
                + "duration (2s) or both (50%,2s)\n");
  }

  @Test
  void aStoreThatCannotBeOpenedIsOneLineNamingIt() throws Exception {
    Path corrupt = Files.writeString(store(), "not a database ".repeat(100));

    CliRun run = history();

    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "cannot open the detection history "
                + corrupt
                + ": [SQLITE_NOTADB] File "
                + "opened that is not a database file (file is not a database)\n");
  }

  @Test
  void runRefusesAnUnsupportedHistoryBeforeTheDrill() {
    CliRun run =
        CliRun.of(
            "run",
            "fixtures/experiments/payments-outage.yaml",
            "--journal",
            dir.resolve("j.json").toString(),
            "--history",
            "jdbc:mysql://db/drills");

    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "--history jdbc:mysql://db/drills: unsupported database (expected "
                + "jdbc:sqlite:FILE, jdbc:postgresql://HOST[:PORT]/DB or a file path)\n");
    assertThat(dir.resolve("j.json")).doesNotExist();
  }
}
