package dev.firedrill.marker.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.Milestone;
import dev.firedrill.engine.Verdict;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.testing.ScriptedFault;
import dev.firedrill.testing.ScriptedPrometheus;
import dev.firedrill.time.VirtualClock;
import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The drill's structured events: the exact lines, where they go, and a failing output. */
class EventLogTest {

  private static final String ID = "\"experiment_id\":\"checkout-latency\"";

  private final VirtualClock clock = new VirtualClock(ScriptedDrill.START);
  private final ScriptedDrill drill = new ScriptedDrill(clock);
  private final ScriptedFault burn = drill.fault("burn");
  private final List<String> problems = new ArrayList<>();
  private final StringWriter out = new StringWriter();

  @TempDir Path dir;

  private EventLog log(List<EventLog.Output> outputs) {
    return new EventLog("checkout-latency", outputs, clock, problems::add);
  }

  @Test
  void aHeldDrillLogsStartInjectRollbackAndVerdict() {
    DrillResult result = drill.observer(log(List.of(EventLog.Output.borrowed("test", out)))).run();

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    assertThat(out.toString())
        .isEqualTo(
            ""
                + "{\"time\":\"2026-11-29T10:00:00Z\",\"event\":\"start\","
                + ID
                + ",\"title\":\"Checkout under CPU pressure\","
                + "\"hypothesis\":\"errors stay under 1%\"}\n"
                + "{\"time\":\"2026-11-29T10:00:00Z\",\"event\":\"inject\","
                + ID
                + ",\"fault\":0,\"kind\":\"cpu-burn\","
                + "\"target\":\"localhost\",\"applied\":true}\n"
                + "{\"time\":\"2026-11-29T10:01:00Z\",\"event\":\"rollback\","
                + ID
                + ",\"fault\":0,\"kind\":\"cpu-burn\","
                + "\"target\":\"localhost\",\"reverted\":true}\n"
                + "{\"time\":\"2026-11-29T10:01:00Z\",\"event\":\"verdict\","
                + ID
                + ",\"verdict\":\"held\","
                + "\"reason\":\"12 measurements while the faults were on within steady state;"
                + " recovered 0.0s after the rollback\"}\n");
    assertThat(problems).isEmpty();
  }

  @Test
  void anAbortedDrillLogsEachBreachReadingTheAbortAndItsReason() {
    // Bad while the fault is on from +15s: the measurement right after the rollback is healthy
    // again.
    for (String query : List.of(ScriptedDrill.ERROR_RATIO, ScriptedDrill.GUARD_ERROR_RATIO)) {
      drill
          .prometheus()
          .answer(query, t -> ScriptedPrometheus.value(burn.applied() && t >= 15 ? 0.2 : 0.001));
    }

    DrillResult result = drill.observer(log(List.of(EventLog.Output.borrowed("test", out)))).run();

    assertThat(result.verdict()).isEqualTo(Verdict.ABORTED);
    String reason = "burn rate 200 above 100 (error ratio 0.2 against an objective of 99.9%)";
    assertThat(out.toString())
        .isEqualTo(
            ""
                + "{\"time\":\"2026-11-29T10:00:00Z\",\"event\":\"start\","
                + ID
                + ",\"title\":\"Checkout under CPU pressure\","
                + "\"hypothesis\":\"errors stay under 1%\"}\n"
                + "{\"time\":\"2026-11-29T10:00:00Z\",\"event\":\"inject\","
                + ID
                + ",\"fault\":0,\"kind\":\"cpu-burn\","
                + "\"target\":\"localhost\",\"applied\":true}\n"
                + "{\"time\":\"2026-11-29T10:00:15Z\",\"event\":\"breach\","
                + ID
                + ",\"phase\":\"during\","
                + "\"name\":\"error_ratio\",\"value\":0.2,\"range\":\"<= 0.01\"}\n"
                + "{\"time\":\"2026-11-29T10:00:15Z\",\"event\":\"breach\","
                + ID
                + ",\"phase\":\"during\","
                + "\"name\":\"burn_rate\",\"value\":199.99999999999983,\"range\":\"<= 100\"}\n"
                + "{\"time\":\"2026-11-29T10:00:15Z\",\"event\":\"abort\","
                + ID
                + ",\"reason\":\""
                + reason
                + "\"}\n"
                + "{\"time\":\"2026-11-29T10:00:15Z\",\"event\":\"rollback\","
                + ID
                + ",\"fault\":0,\"kind\":\"cpu-burn\","
                + "\"target\":\"localhost\",\"reverted\":true}\n"
                + "{\"time\":\"2026-11-29T10:00:15Z\",\"event\":\"verdict\","
                + ID
                + ",\"verdict\":\"aborted\","
                + "\"reason\":\""
                + reason
                + "; recovered 0.0s after the rollback\",\"abort_reason\":\""
                + reason
                + "\"}\n");
  }

  @Test
  void eachLineIsOnDiskAsSoonAsItIsWrittenSoAKilledRunKeepsIt() throws IOException {
    Path file =
        EventLog.besideJournal(dir.resolve("journals/checkout-latency-20261129-100000.json"));
    EventLog log = log(List.of(EventLog.file(file)));

    log.on(new Milestone.Aborted("abort file exists", ScriptedDrill.START, Duration.ZERO));

    assertThat(file.getFileName().toString())
        .isEqualTo("checkout-latency-20261129-100000.events.jsonl");
    assertThat(Files.readString(file))
        .isEqualTo(
            "{\"time\":\"2026-11-29T10:00:00Z\",\"event\":\"abort\","
                + ID
                + ",\"reason\":\"abort file exists\"}\n");
    log.close(Duration.ofSeconds(1));
  }

  @Test
  void otherMarkersNotesAreLoggedWithTheClocksTime() {
    EventLog log = log(List.of(EventLog.Output.borrowed("test", out)));
    clock.advance(Duration.ofMillis(1500));

    log.note("grafana", "annotation 7 added at http://127.0.0.1:3000");

    assertThat(out.toString())
        .isEqualTo(
            "{\"time\":\"2026-11-29T10:00:01.500Z\",\"event\":\"marker_note\","
                + ID
                + ",\"source\":\"grafana\",\"note\":\"annotation 7 added at http://127.0.0.1:3000\"}\n");
  }

  @Test
  void anOutputThatFailsIsReportedOnceAndDroppedWhileTheDrillAndTheOtherOutputsGoOn() {
    Writer breaksAfterTheFirstLine =
        new Writer() {
          private int lines;

          @Override
          public void write(char[] buffer, int offset, int length) throws IOException {
            if (++lines > 1) {
              throw new IOException("Input/output error");
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };

    DrillResult result =
        drill
            .observer(
                log(
                    List.of(
                        new EventLog.Output("/var/log/broken.jsonl", breaksAfterTheFirstLine, true),
                        EventLog.Output.borrowed("stderr", out))))
            .run();

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    assertThat(drill.log())
        .filteredOn(call -> !call.startsWith("measure"))
        .containsExactly("inject burn", "revert burn");
    assertThat(burn.applied()).isFalse();
    assertThat(problems)
        .containsExactly(
            "log: cannot write /var/log/broken.jsonl (Input/output error); the drill goes on without it");
    assertThat(
            out.toString()
                .lines()
                .map(line -> line.replaceAll(".*\"event\":\"([a-z_]+)\".*", "$1")))
        .containsExactly("start", "inject", "rollback", "verdict");
  }

  @Test
  void aFullDiskDoesNotStopTheDrill() throws IOException {
    Path full = Path.of("/dev/full");
    assumeTrue(
        Files.isWritable(full), "needs Linux's /dev/full, where every write fails with ENOSPC");

    DrillResult result = drill.observer(log(List.of(EventLog.file(full)))).run();

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    assertThat(burn.applied()).isFalse();
    assertThat(problems)
        .containsExactly(
            "log: cannot write /dev/full (No space left on device); the drill goes on without it");
  }
}
