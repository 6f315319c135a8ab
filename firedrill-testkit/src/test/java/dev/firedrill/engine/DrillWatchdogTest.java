package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.fault.ProcessTable;
import dev.firedrill.fault.WorkerLauncher;
import dev.firedrill.testing.Procs;
import dev.firedrill.testing.ScriptedDrill;
import dev.firedrill.time.Clock;
import dev.firedrill.time.VirtualClock;
import dev.firedrill.watchdog.DeadMansSwitch;
import dev.firedrill.watchdog.Hold;
import dev.firedrill.watchdog.Holds;
import dev.firedrill.watchdog.WatchdogFiles;
import dev.firedrill.watchdog.WatchdogRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A drill holds every fault whose ttl the watchdog enforces: a real watchdog JVM, started at the
 * first hold and released by the rollback; the drill itself runs on a virtual clock.
 */
class DrillWatchdogTest {

  private final ScriptedDrill drill = new ScriptedDrill(new VirtualClock(ScriptedDrill.START));
  private long[] watchdog;
  private WatchdogFiles files;

  @TempDir Path dir;

  @AfterEach
  void stopTheWatchdog() {
    if (watchdog != null) {
      Procs.kill(watchdog[0], watchdog[1]);
    }
  }

  @Test
  void aWatchdogEnforcedFaultIsNotInjectedWithoutAWatchdog() {
    drill.fault("pause").heldByTheWatchdog();
    DrillResult result = drill.run();

    assertThat(drill.log()).doesNotContain("inject pause");
    assertThat(result.reason())
        .contains("cpu-burn: its ttl is enforced by the watchdog, and this drill has none");
    assertThat(result.rollbackOk()).isTrue();
  }

  @Test
  void theRollbackReleasesTheHoldAndTheWatchdogExitsByItself() throws Exception {
    drill.fault("pause").heldByTheWatchdog();
    drill.fault("burn");

    DrillResult result = runWatched();

    assertThat(result.verdict()).isEqualTo(Verdict.HELD);
    JsonNode json = result.journal().json();
    JsonNode node = json.path("watchdog");
    assertThat(node.path("holds").asText()).isEqualTo(files.holds().toString());
    assertThat(node.path("lease").asText()).isEqualTo(files.lease().toString());
    assertThat(node.path("record").asText()).isEqualTo(files.record().toString());
    assertThat(json.path("faults").path(0).path("ttl_enforced_by").asText())
        .isEqualTo("the watchdog");
    assertThat(json.path("faults").path(1).path("ttl_enforced_by").asText())
        .isEqualTo("the injector");
    assertThat(drill.lines())
        .anyMatch(line -> line.contains("watchdog PID " + watchdog[0] + " holds the ttl"));

    Holds holds = Holds.read(files.holds()).orElseThrow();
    assertThat(holds.faults()).as("only the watchdog's fault is held").hasSize(1);
    assertThat(holds.faults().get(0).state().path("applied").asBoolean())
        .as("the hold was updated with the state after the injection")
        .isTrue();
    assertThat(holds.pending()).as("the rollback released it").isEmpty();
    assertThat(Files.readString(files.lease())).contains("\"ended\" : true");
    assertThat(Procs.waitFor(Duration.ofSeconds(10), () -> !Procs.alive(watchdog[0], watchdog[1])))
        .as("the watchdog exits once nothing is left to hold")
        .isTrue();
    assertThat(WatchdogRecord.read(files.record()).entries()).isEmpty();
  }

  /**
   * Every milestone from the watchdog's start to the end of the rollback renews the lease, the
   * rollback's own steps included: a slow revert never lets the lease run out while firedrill still
   * works. A fault that fails to inject is held with the state it was left in.
   */
  @Test
  void everyMilestoneRenewsTheLeaseAndAFailedInjectionUpdatesItsHold() throws Exception {
    drill.fault("pause").heldByTheWatchdog();
    drill.fault("stop").heldByTheWatchdog().failsToInject();

    DrillResult result = runWatched();

    assertThat(result.verdict()).isEqualTo(Verdict.FAILED);
    List<Milestone> milestones = drill.milestones();
    int started = indexOf(milestones, Milestone.WatchdogStarted.class);
    int rolledBack = indexOf(milestones, Milestone.RolledBack.class);
    assertThat(
            milestones.subList(started, rolledBack).stream()
                .filter(m -> m instanceof Milestone.FaultReverting)
                .count())
        .as("both faults' reverts fall within the lease's renewals")
        .isEqualTo(2);
    JsonNode lease = new ObjectMapper().readTree(files.lease().toFile());
    // The first hold writes sequence 1, each milestone from the watchdog's start until the end
    // renews once, and the end writes the last.
    assertThat(lease.path("sequence").asLong()).isEqualTo(1 + (rolledBack - started) + 1);
    assertThat(lease.path("ended").asBoolean()).isTrue();
    Holds holds = Holds.read(files.holds()).orElseThrow();
    assertThat(holds.faults()).extracting(Hold::index).containsExactly(0, 1);
    assertThat(holds.faults().get(1).state().path("applied").asBoolean())
        .as("the half-started fault's hold has its state after the failed injection")
        .isTrue();
    assertThat(holds.pending()).isEmpty();
    assertThat(Procs.waitFor(Duration.ofSeconds(10), () -> !Procs.alive(watchdog[0], watchdog[1])))
        .isTrue();
  }

  /**
   * Runs the drill with a journal in {@link #dir} and a real watchdog beside it (a 1 min lease, 30
   * s grace); keeps the watchdog's process so that it is killed after the test whatever it
   * asserted.
   */
  private DrillResult runWatched() {
    Path journal = dir.resolve("drill.json");
    files = WatchdogFiles.beside(journal);
    drill
        .journal(new JournalFile(journal))
        .watchdog(
            new DeadMansSwitch(
                files,
                "drill",
                Duration.ofMinutes(1),
                Duration.ofSeconds(30),
                WorkerLauncher.current(),
                ProcessTable.system(),
                Clock.system()));
    DrillResult result = drill.run();
    JsonNode node = result.journal().json().path("watchdog");
    watchdog = new long[] {node.path("pid").asLong(), node.path("start").asLong()};
    return result;
  }

  private static int indexOf(List<Milestone> milestones, Class<? extends Milestone> type) {
    for (int i = 0; i < milestones.size(); i++) {
      if (type.isInstance(milestones.get(i))) {
        return i;
      }
    }
    throw new AssertionError("no " + type.getSimpleName() + " in " + milestones);
  }
}
