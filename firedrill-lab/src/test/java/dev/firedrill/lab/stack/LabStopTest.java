package dev.firedrill.lab.stack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.fault.ProcessId;
import dev.firedrill.time.VirtualClock;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LabStopTest {

  @TempDir Path dir;

  private final FakeProcesses table = new FakeProcesses();
  private final VirtualClock clock = VirtualClock.at("2026-12-01T10:00:00Z");
  private final List<String> lines = new ArrayList<>();

  private LabState up(long... pids) throws IOException {
    List<LabStack.Component> components = new ArrayList<>();
    for (long pid : pids) {
      components.add(
          new LabStack.Component(
              "c" + pid, pid, "http://127.0.0.1:" + pid, dir.resolve(pid + ".log")));
    }
    LabState state = LabState.in(dir);
    state.write(components, table);
    return state;
  }

  private LabStop.Outcome stop(LabState state) throws IOException, InterruptedException {
    return new LabStop(table, clock).stop(state, step -> lines.add(step.line()));
  }

  @Test
  void theLastStartedStopsFirstAndTheStateFileGoes() throws Exception {
    table.start(1, FakeProcesses.Temper.EXITS_ON_TERM);
    table.start(2, FakeProcesses.Temper.EXITS_ON_TERM);
    table.start(3, FakeProcesses.Temper.EXITS_ON_TERM);
    LabState state = up(1, 2, 3);

    LabStop.Outcome outcome = stop(state);

    assertThat(outcome).isEqualTo(new LabStop.Outcome.Down(dir));
    assertThat(table.sent).containsExactly("TERM 3", "TERM 2", "TERM 1");
    assertThat(lines).containsExactly("c3 stopped", "c2 stopped", "c1 stopped");
    assertThat(state.exists()).isFalse();
  }

  @Test
  void aProcessThatIgnoresTermGetsKillAfterTheGrace() throws Exception {
    table.start(5, FakeProcesses.Temper.EXITS_ON_KILL);
    LabState state = up(5);

    LabStop.Outcome outcome = stop(state);

    assertThat(outcome).isInstanceOf(LabStop.Outcome.Down.class);
    assertThat(table.sent).containsExactly("TERM 5", "KILL 5");
    assertThat(Duration.ofNanos(clock.nanoTime())).isGreaterThanOrEqualTo(LabStop.GRACE);
  }

  @Test
  void aProcessThatWillNotStopIsLeftForAHumanAndTheStateFileStays() throws Exception {
    table.start(7, FakeProcesses.Temper.EXITS_ON_TERM);
    ProcessId stuck = table.start(8, FakeProcesses.Temper.UNKILLABLE);
    ProcessId foreign = table.start(9, FakeProcesses.Temper.NOT_OURS);
    LabState state = up(7, 8, 9);

    LabStop.Outcome outcome = stop(state);

    assertThat(outcome).isInstanceOf(LabStop.Outcome.StillRunning.class);
    assertThat(((LabStop.Outcome.StillRunning) outcome).left())
        .extracting(LabState.Process::id)
        .containsExactly(foreign, stuck);
    assertThat(lines)
        .containsExactly(
            "c9 (PID 9) is still running; stop it by hand: kill -9 9",
            "c8 (PID 8) is still running; stop it by hand: kill -9 8",
            "c7 stopped");
    assertThat(state.exists()).isTrue();
  }

  @Test
  void aPidTakenBySomeoneElseSinceIsNotSignalled() throws Exception {
    LabState.in(dir)
        .write(List.of(new LabStack.Component("payments", 11, "u", dir.resolve("p.log"))), table);
    // The file recorded no start time (payments was gone at the write); PID 11 now names a
    // stranger.
    table.start(11, FakeProcesses.Temper.UNKILLABLE);

    LabStop.Outcome outcome = stop(LabState.in(dir));

    assertThat(outcome).isInstanceOf(LabStop.Outcome.Down.class);
    assertThat(table.sent).isEmpty();
  }

  @Test
  void noStateFileIsNoLab() throws Exception {
    LabStop.Outcome outcome = stop(LabState.in(dir.resolve("never-up")));

    assertThat(outcome).isEqualTo(new LabStop.Outcome.NotUp(dir.resolve("never-up/lab.json")));
    assertThat(lines).isEmpty();
  }
}
