package dev.firedrill.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.experiment.FaultSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ProcessKillFaultTest {

  private final Decoys decoys = new Decoys();
  private final List<Fault> faults = new ArrayList<>();
  private final ProcessTable processes = ProcessTable.system();

  @AfterEach
  void cleanUp() throws Exception {
    for (Fault fault : faults) {
      Decoys.killAll(processes, Contexts.processIds(fault.state()));
    }
    decoys.close();
  }

  private Fault fault(String match, String signal, Duration ttl, FaultContext context) {
    Fault fault =
        Faults.create(
            new FaultSpec.ProcessKill(match, signal, Optional.empty(), Optional.ofNullable(ttl)),
            context);
    faults.add(fault);
    return fault;
  }

  @Test
  void killsTheMatchingProcessAndHasNothingToUndo() throws Exception {
    String token = Decoys.uniqueToken();
    ProcessInfo decoy = decoys.start(token);
    Fault fault = fault(token, "KILL", Duration.ofSeconds(30), Contexts.real("kill", 1, 1));

    assertThat(fault.plan())
        .containsExactly("send SIGKILL to PID " + decoy.pid() + " (sleep " + token + ")");
    fault.inject();

    assertThat(Decoys.waitFor(Duration.ofSeconds(5), () -> !processes.alive(decoy.id()))).isTrue();
    fault.revert();
    Verification verification = fault.verify();
    assertThat(verification.reverted()).isTrue();
    assertThat(verification.detail())
        .isEqualTo(
            "nothing to undo: SIGKILL sent to PID "
                + decoy.pid()
                + "; a supervisor restarts the process, or nothing does; the after-measurement shows which");
    assertThat(fault.manualRevertCommand())
        .isEqualTo("# nothing to undo: SIGKILL cannot be taken back");
    assertThat(fault.state())
        .isEqualTo(
            Map.of(
                "signal",
                "KILL",
                "targets",
                List.of(Map.of("pid", decoy.pid(), "start", decoy.startTicks()))));
  }

  @Test
  void stopPausesAndRevertResumes() throws Exception {
    String token = Decoys.uniqueToken();
    ProcessInfo decoy = decoys.start(token);
    Fault fault = fault(token, "STOP", Duration.ofMinutes(5), Contexts.real("stop", 1, 1));

    assertThat(fault.plan())
        .containsExactly(
            "hold in the watchdog: SIGCONT to PID "
                + decoy.pid()
                + " at the ttl of 5m, or when firedrill stops renewing its lease",
            "send SIGSTOP to PID " + decoy.pid() + " (sleep " + token + ")");
    assertThat(fault.ttlEnforcer()).isEqualTo(TtlEnforcer.WATCHDOG);
    assertThat(fault.state().get("targets"))
        .as("before injection the watchdog holds the planned targets")
        .isEqualTo(List.of(decoy.id().toState()));
    fault.inject();

    assertThat(Decoys.waitFor(Duration.ofSeconds(5), () -> decoys.state(decoy.id()) == 'T'))
        .isTrue();
    assertThat(fault.verify().reverted()).isFalse();
    assertThat(fault.verify().detail()).isEqualTo("still stopped (state T): PID " + decoy.pid());
    assertThat(fault.manualRevertCommand()).isEqualTo("kill -s CONT " + decoy.pid());

    fault.revert();

    assertThat(decoys.state(decoy.id())).isNotEqualTo('T').isNotEqualTo('-');
    assertThat(fault.verify().reverted()).isTrue();
    assertThat(fault.verify().detail())
        .isEqualTo(
            "resumed 1 process (SIGCONT, PID " + decoy.pid() + "); verified: none is stopped");
    fault.revert();
    assertThat(fault.verify().reverted()).isTrue();
  }

  @Test
  void onlyAStopIsHeldByTheWatchdog() {
    Fault kill = fault("payments-server", "KILL", Duration.ofSeconds(30), Contexts.real("k", 1, 1));
    assertThat(kill.ttlEnforcer()).isEqualTo(TtlEnforcer.NONE);
  }

  @Test
  void aFaultRestoredFromItsStateReverts() throws Exception {
    String token = Decoys.uniqueToken();
    ProcessInfo decoy = decoys.start(token);
    FaultSpec.ProcessKill spec =
        new FaultSpec.ProcessKill(
            token, "STOP", Optional.empty(), Optional.of(Duration.ofMinutes(5)));
    Fault original = Faults.create(spec, Contexts.real("restore", 1, 1));
    faults.add(original);
    original.inject();
    assertThat(Decoys.waitFor(Duration.ofSeconds(5), () -> decoys.state(decoy.id()) == 'T'))
        .isTrue();

    Map<String, Object> journal = Contexts.throughJson(original.state());
    assertThat(journal).containsOnlyKeys("signal", "targets");
    Fault restored = Faults.restore(spec, Contexts.real("restore", 1, 1), journal);
    restored.revert();

    assertThat(decoys.state(decoy.id())).isNotEqualTo('T').isNotEqualTo('-');
    assertThat(restored.verify().reverted()).isTrue();
    assertThatThrownBy(restored::inject).isInstanceOf(FaultException.class);
  }

  @Test
  void percentRoundsUpAndPlansInPidOrder() throws Exception {
    String token = Decoys.uniqueToken();
    List<ProcessInfo> started = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      started.add(decoys.start(token));
    }
    long lowest = started.stream().mapToLong(ProcessInfo::pid).min().orElseThrow();
    Fault fault =
        Faults.create(
            new FaultSpec.ProcessKill(
                token, "TERM", Optional.of(0.1), Optional.of(Duration.ofSeconds(30))),
            Contexts.real("percent", 1, 1));

    assertThat(fault.plan())
        .containsExactly("send SIGTERM to PID " + lowest + " (sleep " + token + ")");
    Fault half =
        Faults.create(
            new FaultSpec.ProcessKill(
                token, "TERM", Optional.of(0.5), Optional.of(Duration.ofSeconds(30))),
            Contexts.real("percent", 2, 1));
    assertThat(half.plan()).hasSize(2);
  }

  @Test
  void refusesAMatchShorterThanFourCharacters() {
    Fault fault = fault("abc", "KILL", Duration.ofSeconds(30), Contexts.real("short", 1, 1));
    assertThatThrownBy(fault::plan)
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "process-kill: match \"abc\" is 3 characters; expected at least 4 so it cannot hit half the host");
  }

  @Test
  void refusesWhenNothingMatches() {
    String token = Decoys.uniqueToken();
    Fault fault = fault(token, "KILL", Duration.ofSeconds(30), Contexts.real("none", 1, 1));
    assertThatThrownBy(fault::plan)
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "process-kill: no process matches \""
                + token
                + "\" (firedrill, its parent, its descendants and"
                + " PID 1 are never hit); a fault that hits nothing proves nothing");
  }

  @Test
  void refusesMoreProcessesThanTheBlastRadiusAllows() throws Exception {
    String token = Decoys.uniqueToken();
    ProcessInfo first = decoys.start(token);
    ProcessInfo second = decoys.start(token);
    Fault fault = fault(token, "KILL", Duration.ofSeconds(30), Contexts.real("many", 1, 1));

    assertThatThrownBy(fault::plan)
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "process-kill: would signal 2 processes matching \""
                + token
                + "\" but blast_radius max_processes is 1");
    assertThatThrownBy(fault::inject).isInstanceOf(FaultRefusedException.class);
    assertThat(processes.alive(first.id())).isTrue();
    assertThat(processes.alive(second.id())).isTrue();
  }

  @Test
  void refusesTtlProblemsWithBothValues() {
    FaultContext context = Contexts.real("ttl", 1, 1);
    assertThatThrownBy(fault("sleep 1", "KILL", null, context)::plan)
        .isInstanceOf(FaultRefusedException.class)
        .hasMessageStartingWith(
            "process-kill: no ttl; every fault needs a ttl that the injector enforces on its own: add ttl: ");
    assertThatThrownBy(fault("sleep 1", "KILL", Duration.ofMillis(500), context)::plan)
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "process-kill: ttl 500ms is shorter than the method duration 1s; expected a ttl of at least 1s");
    assertThatThrownBy(fault("sleep 1", "KILL", Duration.ofMinutes(90), context)::plan)
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "process-kill: ttl 1h30m is longer than blast_radius max_duration 1h; expected a ttl of at most 1h");
  }

  @Test
  void refusesAnUnknownSignal() {
    Fault fault = fault("sleep 1", "WINCH", Duration.ofSeconds(30), Contexts.real("signal", 1, 1));
    assertThatThrownBy(fault::plan)
        .hasMessage(
            "process-kill: signal \"WINCH\" is not supported; expected one of KILL, TERM, INT, HUP, QUIT, USR1, USR2, STOP");
  }

  @Test
  void neverSelectsItselfItsParentItsChildrenOrPidOne() throws Exception {
    long self = ProcessHandle.current().pid();
    ProcessInfo me = processes.find(self).orElseThrow();
    ProcessInfo parent = processes.find(me.ppid()).orElseThrow();
    String childToken = Decoys.uniqueToken();
    decoys.startChild(childToken);
    FaultContext context = Contexts.real("self", 100_000, 1);

    for (String match : List.of(me.commandLine(), parent.commandLine(), childToken)) {
      Fault fault = fault(match, "KILL", Duration.ofSeconds(30), context);
      assertThatThrownBy(fault::plan).as(match).hasMessageContaining("no process matches");
    }
    String pidOne = processes.find(1).map(ProcessInfo::commandLine).orElse("");
    for (String match : List.of("java", pidOne)) {
      if (match.length() < 4) {
        continue;
      }
      List<String> plan;
      try {
        plan = fault(match, "KILL", Duration.ofSeconds(30), context).plan();
      } catch (FaultRefusedException nothingElseMatches) {
        continue;
      }
      assertThat(plan)
          .noneMatch(line -> line.startsWith("send SIGKILL to PID " + self + " "))
          .noneMatch(line -> line.startsWith("send SIGKILL to PID " + me.ppid() + " "))
          .noneMatch(line -> line.startsWith("send SIGKILL to PID 1 "));
    }
  }

  @Test
  void aRecycledPidIsNeverSignalled() throws Exception {
    ProcessInfo decoy = decoys.start(Decoys.uniqueToken());
    ProcessId impostor = new ProcessId(decoy.pid(), decoy.startTicks() + 1);

    assertThat(processes.signal(impostor, Signal.STOP)).isFalse();
    assertThat(processes.signal(impostor, Signal.KILL)).isFalse();
    assertThat(decoys.state(decoy.id())).isNotEqualTo('T').isNotEqualTo('-');
  }

  @Test
  void parsesStatAfterTheLastParenthesis(@org.junit.jupiter.api.io.TempDir Path proc)
      throws Exception {
    Path dir = Files.createDirectories(proc.resolve("4242"));
    StringBuilder stat = new StringBuilder("4242 (we(ird) name) T 77");
    for (int field = 5; field <= 21; field++) {
      stat.append(' ').append(field);
    }
    stat.append(" 987654 0 0\n");
    Files.writeString(dir.resolve("stat"), stat);
    Files.write(dir.resolve("cmdline"), "sleep\u0000300.5\u0000\u0000".getBytes());
    Files.createDirectories(proc.resolve("self"));

    List<ProcessInfo> listed = new ProcProcessTable(proc).list();

    assertThat(listed)
        .containsExactly(new ProcessInfo(4242, 77, 987654, 'T', List.of("sleep", "300.5", "")));
    assertThat(listed.get(0).stopped()).isTrue();
  }
}
