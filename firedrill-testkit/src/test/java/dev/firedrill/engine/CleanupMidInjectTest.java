package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultKinds;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.time.VirtualClock;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * firedrill killed inside inject(): the journal says "starting" and holds no state. Once the
 * fault's ttl has passed, cleanup reports nothing left (exit 0), not a fault that needs a human
 * (exit 7); before, it may still be there, and cleanup says so.
 */
class CleanupMidInjectTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant STARTED = Instant.parse("2026-11-29T10:00:00Z");

  @TempDir Path dir;

  private JournalFile killedMidInject() {
    FaultSpec spec = ScriptedDrill.HTTP_LATENCY; // ttl 2m
    ObjectNode root = JSON.createObjectNode();
    root.put("firedrill_journal", Journal.FORMAT);
    ObjectNode fault = root.putArray("faults").addObject();
    fault.put("index", 0);
    fault.put("kind", spec.kind());
    fault.set("spec", FaultKinds.installed().writeJournal(spec));
    fault.put("started_at", STARTED.toString());
    fault.put("injected", true);
    fault.put("reverted", false);
    JournalFile file = new JournalFile(dir.resolve("drill.journal.json"));
    file.write(Journal.of(root));
    return file;
  }

  private static Cleanup.Result cleanup(JournalFile file, Instant now, List<String> lines)
      throws IOException {
    FaultProvider never =
        new FaultProvider() {
          @Override
          public Fault create(FaultSpec spec) {
            throw new AssertionError("cleanup creates no fault");
          }

          @Override
          public Fault restore(FaultSpec spec, Map<String, Object> state) {
            throw new AssertionError("there is no state to restore from");
          }
        };
    return new Cleanup(never, new VirtualClock(now))
        .run(file.read(), file, o -> lines.add(o.line()));
  }

  @Test
  void afterItsTtlAFaultKilledMidInjectLeavesNothingForAHuman() throws IOException {
    JournalFile file = killedMidInject();
    List<String> lines = new ArrayList<>();

    Cleanup.Result result = cleanup(file, STARTED.plus(Duration.ofMinutes(3)), lines);

    assertThat(result.needsHuman()).isFalse();
    assertThat(lines)
        .containsExactly(
            "fault 0 (http-latency): nothing left to revert: no state was recorded (firedrill"
                + " stopped while injecting it), and its ttl of 2m ended it by itself at"
                + " 2026-11-29T10:02:00Z");
    List<String> again = new ArrayList<>();
    assertThat(cleanup(file, STARTED.plus(Duration.ofMinutes(4)), again).outcomes()).isEmpty();
  }

  @Test
  void withinItsTtlAFaultKilledMidInjectMayStillBeThere() throws IOException {
    List<String> lines = new ArrayList<>();

    Cleanup.Result result = cleanup(killedMidInject(), STARTED.plus(Duration.ofMinutes(1)), lines);

    assertThat(result.needsHuman()).isTrue();
    assertThat(lines.get(0)).contains("no state was recorded").contains("ends it by itself");
  }
}
