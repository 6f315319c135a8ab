package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.FaultKinds;
import dev.firedrill.fault.Verification;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.time.VirtualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cleanup of a journal firedrill left behind, fault by fault: what it skips, what it reverts, what
 * it finds already gone, what it cannot undo, and what it writes back into the journal.
 */
class CleanupTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant NOW = Instant.parse("2026-11-29T11:00:00Z");

  @TempDir Path dir;

  private final List<String> log = new ArrayList<>();
  private final ObjectNode root = JSON.createObjectNode();
  private final ArrayNode faults = root.putArray("faults");

  CleanupTest() {
    root.put("firedrill_journal", Journal.FORMAT);
  }

  /**
   * A fault rebuilt from its journaled state: {@code on} whether it is in place, {@code refuses}
   * whether its revert throws, {@code sticks} whether it stays after a revert that says nothing.
   */
  private final class Restored implements Fault {
    private final FaultSpec spec;
    private final Map<String, Object> state;
    private boolean on;

    Restored(FaultSpec spec, Map<String, Object> state) {
      this.spec = spec;
      this.state = state;
      this.on = Boolean.TRUE.equals(state.get("on"));
    }

    @Override
    public FaultSpec spec() {
      return spec;
    }

    @Override
    public List<String> plan() {
      return List.of();
    }

    @Override
    public void inject() {
      throw new AssertionError("cleanup never injects");
    }

    @Override
    public void revert() throws FaultException {
      log.add("revert " + state.get("name"));
      if (Boolean.TRUE.equals(state.get("refuses"))) {
        throw new FaultException(state.get("name") + " refused to go");
      }
      if (!Boolean.TRUE.equals(state.get("sticks"))) {
        on = false;
      }
    }

    @Override
    public Verification verify() {
      return on
          ? Verification.remaining(state.get("name") + " still on")
          : Verification.reverted(state.get("name") + " gone");
    }

    @Override
    public String manualRevertCommand() {
      return "undo " + state.get("name");
    }

    @Override
    public Map<String, Object> state() {
      return state;
    }
  }

  private final FaultProvider provider =
      new FaultProvider() {
        @Override
        public Fault create(FaultSpec spec) {
          throw new AssertionError("cleanup creates no fault");
        }

        @Override
        public Fault restore(FaultSpec spec, Map<String, Object> state) {
          return new Restored(spec, state);
        }
      };

  private ObjectNode fault(boolean injected, boolean reverted, Map<String, Object> state) {
    ObjectNode node = faults.addObject();
    node.put("index", faults.size() - 1);
    node.put("kind", ScriptedDrill.CPU_BURN.kind());
    node.set("spec", FaultKinds.installed().writeJournal(ScriptedDrill.CPU_BURN));
    node.put("injected", injected);
    node.put("reverted", reverted);
    node.set("state", JSON.valueToTree(state));
    return node;
  }

  private JournalFile file() {
    JournalFile file = new JournalFile(dir.resolve("drill.journal.json"));
    file.write(Journal.of(root));
    return file;
  }

  private Cleanup.Result cleanup(JournalFile file, List<String> lines) throws IOException {
    return new Cleanup(provider, new VirtualClock(NOW))
        .run(file.read(), file, o -> lines.add(o.line()));
  }

  @Test
  void eachPendingFaultIsCheckedRevertedOrHandedToAHumanAndTheJournalSaysSo() throws IOException {
    fault(true, false, Map.of("name", "a", "on", true));
    fault(true, true, Map.of("name", "b", "on", true));
    fault(false, false, Map.of("name", "c", "on", true));
    fault(true, false, Map.of("name", "d", "on", false));
    fault(true, false, Map.of("name", "e", "on", true, "refuses", true));
    fault(true, false, Map.of("name", "f", "on", true, "sticks", true));
    JournalFile file = file();
    List<String> lines = new ArrayList<>();

    Cleanup.Result result = cleanup(file, lines);

    assertThat(lines)
        .containsExactly(
            "fault 0 (cpu-burn): reverted: a gone",
            "fault 3 (cpu-burn): nothing left to revert: d gone",
            "fault 4 (cpu-burn): e refused to go; run by hand: undo e",
            "fault 5 (cpu-burn): still present after revert: f still on; run by hand: undo f");
    assertThat(log)
        .as("reverted or skipped, in the journal's order")
        .containsExactly("revert a", "revert e", "revert f");
    assertThat(result.outcomes())
        .extracting(Cleanup.Outcome::index, Cleanup.Outcome::clean)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(0, true),
            org.assertj.core.groups.Tuple.tuple(3, true),
            org.assertj.core.groups.Tuple.tuple(4, false),
            org.assertj.core.groups.Tuple.tuple(5, false));
    assertThat(result.needsHuman()).isTrue();

    Journal written = file.read();
    assertRevert(written.faultNode(0), true, 1, "cleanup: a gone", null);
    assertThat(written.faultNode(1).has("revert")).as("reverted by the drill").isFalse();
    assertThat(written.faultNode(2).has("revert")).as("never injected").isFalse();
    assertRevert(written.faultNode(3), true, 0, "cleanup: nothing left to revert: d gone", null);
    assertRevert(written.faultNode(4), false, 1, "cleanup: e refused to go", "undo e");
    assertRevert(
        written.faultNode(5),
        false,
        1,
        "cleanup: still present after revert: f still on",
        "undo f");
  }

  @Test
  void aJournalWithNothingPendingIsLeftAsItWas() throws IOException {
    fault(true, true, Map.of("name", "a", "on", false));
    JournalFile file = file();
    String before = Files.readString(file.path());

    Cleanup.Result result = cleanup(file, new ArrayList<>());

    assertThat(result.outcomes()).isEmpty();
    assertThat(result.needsHuman()).isFalse();
    assertThat(Files.readString(file.path())).isEqualTo(before);
  }

  @Test
  void onlyCleanOutcomesMeanNoHumanIsNeeded() throws IOException {
    fault(true, false, Map.of("name", "a", "on", true));
    fault(true, false, Map.of("name", "b", "on", false));

    Cleanup.Result result = cleanup(file(), new ArrayList<>());

    assertThat(result.outcomes()).hasSize(2);
    assertThat(result.needsHuman()).isFalse();
  }

  @Test
  void aFaultTheJournalCannotRebuildIsNamedWithWhy() throws IOException {
    ObjectNode broken = fault(true, false, Map.of("name", "a", "on", true));
    broken.set("spec", JSON.createObjectNode().put("kind", "no-such-kind"));
    List<String> lines = new ArrayList<>();

    Cleanup.Result result = cleanup(file(), lines);

    assertThat(lines)
        .singleElement()
        .asString()
        .startsWith("fault 0 (cpu-burn): cannot rebuild the fault from the journal: ");
    assertThat(result.needsHuman()).isTrue();
    assertThat(log).isEmpty();
  }

  @Test
  void whatTheWatchdogAlreadyUndidIsVerifiedAgainAndItsFailureIsQuoted() throws IOException {
    Path record = dir.resolve("drill.journal.watchdog.json");
    ObjectNode watchdog = root.putObject("watchdog");
    watchdog.put("holds", dir.resolve("drill.journal.holds.json").toString());
    watchdog.put("lease", dir.resolve("drill.journal.lease.json").toString());
    watchdog.put("record", record.toString());
    fault(true, false, Map.of("name", "a", "on", false));
    fault(true, false, Map.of("name", "b", "on", true, "refuses", true));
    ObjectNode undone = JSON.createObjectNode();
    undone
        .putArray("undone")
        .add(entry(0, true, "resumed 1 process"))
        .add(entry(1, false, "kill: no such process"));
    Files.writeString(record, undone.toString());
    Path holds = dir.resolve("drill.journal.holds.json");
    ObjectNode held = JSON.createObjectNode();
    held.put("experiment_id", "drill");
    held.put("method_duration", "1m");
    held.putArray("faults").add(hold(0)).add(hold(1));
    Files.writeString(holds, held.toString());
    // What a writer killed between its temp file and the rename leaves beside the files.
    List<Path> leftovers =
        List.of(
            dir.resolve(".drill.journal.json.1.tmp"),
            dir.resolve(".drill.journal.holds.json.2.tmp"),
            dir.resolve(".drill.journal.lease.json.3.tmp"),
            dir.resolve(".drill.journal.watchdog.json.4.tmp"));
    for (Path leftover : leftovers) {
      Files.writeString(leftover, "{");
    }
    JournalFile file = file();
    List<String> lines = new ArrayList<>();

    cleanup(file, lines);

    assertThat(lines)
        .containsExactly(
            "fault 0 (cpu-burn): the watchdog already undid it at 2026-11-29T10:01:00Z (its lease"
                + " ran out): resumed 1 process; verified again: a gone",
            "fault 1 (cpu-burn): b refused to go; before that, the watchdog could not undo it at"
                + " 2026-11-29T10:01:00Z (its lease ran out): kill: no such process; run by hand:"
                + " undo b");
    assertRevert(
        file.read().faultNode(0),
        true,
        0,
        "cleanup: the watchdog already undid it at 2026-11-29T10:01:00Z (its lease ran out):"
            + " resumed 1 process; verified again: a gone",
        null);
    assertThat(dev.firedrill.watchdog.Holds.read(holds).orElseThrow().pending())
        .as("a still-running watchdog drops what cleanup found clean, and only that")
        .extracting(dev.firedrill.watchdog.Hold::index)
        .containsExactly(1);
    assertThat(leftovers).noneMatch(Files::exists);
  }

  private static ObjectNode hold(int index) {
    ObjectNode node = JSON.createObjectNode();
    node.put("index", index);
    node.put("kind", "cpu-burn");
    node.set("spec", FaultKinds.installed().writeJournal(ScriptedDrill.CPU_BURN));
    node.putObject("state");
    node.put("ttl", "30m");
    node.put("deadline", "2026-11-29T10:30:00Z");
    node.put("done", false);
    return node;
  }

  private static ObjectNode entry(int index, boolean ok, String detail) {
    ObjectNode node = JSON.createObjectNode();
    node.put("index", index);
    node.put("kind", "cpu-burn");
    node.put("why", "its lease ran out");
    node.put("at", "2026-11-29T10:01:00Z");
    node.put("ok", ok);
    node.put("detail", detail);
    if (!ok) {
      node.put("manual_command", "undo");
    }
    return node;
  }

  private static void assertRevert(
      JsonNode fault, boolean ok, int attempts, String detail, String manual) {
    assertThat(fault.path("reverted").asBoolean()).isEqualTo(ok);
    JsonNode revert = fault.path("revert");
    assertThat(revert.path("at").asText()).isEqualTo(NOW.toString());
    assertThat(revert.path("ok").asBoolean()).isEqualTo(ok);
    assertThat(revert.path("attempts").asInt()).isEqualTo(attempts);
    assertThat(revert.path("detail").asText()).isEqualTo(detail);
    assertThat(revert.path("manual_command").asText(null)).isEqualTo(manual);
  }
}
