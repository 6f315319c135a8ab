package dev.firedrill.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.experiment.FaultSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CpuBurnFaultTest {

  private final ProcessTable processes = ProcessTable.system();
  private final List<Fault> faults = new ArrayList<>();

  @AfterEach
  void killWorkers() throws Exception {
    for (Fault fault : faults) {
      Decoys.killAll(processes, Contexts.processIds(fault.state()));
    }
  }

  private Fault fault(int workers, Duration ttl, FaultContext context) {
    Fault fault = Faults.create(new FaultSpec.CpuBurn(workers, Optional.ofNullable(ttl)), context);
    faults.add(fault);
    return fault;
  }

  private List<ProcessId> workers(Fault fault) throws FaultException {
    return Contexts.processIds(fault.state());
  }

  @Test
  void aWorkerExitsByItselfAtItsTtl() throws Exception {
    Fault fault = fault(1, Duration.ofSeconds(2), Contexts.real("burn-ttl", 1, 1));

    assertThat(fault.plan())
        .containsExactly(
            "start 1 cpu-burn worker (java ... CpuBurnWorker"
                + " --seconds 2 --experiment burn-ttl), which exits by itself after 2s");
    fault.inject();
    List<ProcessId> workers = workers(fault);

    assertThat(workers).hasSize(1);
    ProcessInfo worker = processes.find(workers.get(0)).orElseThrow();
    assertThat(worker.commandLine())
        .contains("-XX:TieredStopAtLevel=1 -Xmx32m -cp ")
        .endsWith("dev.firedrill.fault.CpuBurnWorker --seconds 2 --experiment burn-ttl");
    assertThat(fault.verify().reverted()).isFalse();
    assertThat(Decoys.waitFor(Duration.ofSeconds(10), () -> !processes.alive(workers.get(0))))
        .isTrue();
    assertThat(fault.verify().reverted()).isTrue();
  }

  @Test
  void revertEndsWorkersBeforeTheirTtlAndIsIdempotent() throws Exception {
    Fault fault = fault(2, Duration.ofMinutes(15), Contexts.real("burn-revert", 1, 2));

    assertThat(fault.plan())
        .containsExactly(
            "start 2 cpu-burn workers (java ... CpuBurnWorker"
                + " --seconds 900 --experiment burn-revert), each exits by itself after 15m");
    fault.inject();
    List<ProcessId> workers = workers(fault);
    assertThat(workers).hasSize(2).allMatch(processes::alive);
    assertThat(fault.verify().detail())
        .isEqualTo("cpu-burn workers still alive: PIDs " + Terminator.pids(workers));
    assertThat(fault.manualRevertCommand()).isEqualTo("kill -9 " + Terminator.pids(workers));

    fault.revert();

    assertThat(workers).noneMatch(processes::alive);
    assertThat(fault.verify())
        .isEqualTo(
            Verification.reverted(
                "stopped 2 cpu-burn workers (SIGTERM, then SIGKILL if needed); verified: none is"
                    + " running (PIDs "
                    + Terminator.pids(workers)
                    + ")"));
    fault.revert();
    assertThat(fault.verify().reverted()).isTrue();
  }

  @Test
  void aFaultRestoredFromItsStateReverts() throws Exception {
    FaultSpec.CpuBurn spec = new FaultSpec.CpuBurn(1, Optional.of(Duration.ofMinutes(15)));
    Fault original = Faults.create(spec, Contexts.real("burn-restore", 1, 1));
    faults.add(original);
    original.inject();

    Map<String, Object> journal = Contexts.throughJson(original.state());
    assertThat(journal).containsOnlyKeys("workers");
    Fault restored = Faults.restore(spec, Contexts.real("burn-restore", 1, 1), journal);
    assertThat(restored.verify().reverted()).isFalse();
    restored.revert();

    assertThat(workers(original)).noneMatch(processes::alive);
    assertThat(restored.verify().reverted()).isTrue();
  }

  @Test
  void revertingWhatNeverStartedIsFine() throws Exception {
    Fault fault = fault(1, Duration.ofSeconds(30), Contexts.real("burn-none", 1, 1));
    fault.revert();
    assertThat(fault.verify()).isEqualTo(Verification.reverted("no cpu-burn worker was started"));
    assertThat(fault.state()).isEqualTo(Map.of("workers", List.of()));
  }

  @Test
  void refusesMoreWorkersThanTheBlastRadiusAllows() {
    Fault fault = fault(3, Duration.ofSeconds(30), Contexts.real("burn-many", 1, 2));
    assertThatThrownBy(fault::plan)
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage("cpu-burn: 3 workers exceed blast_radius max_workers 2");
    assertThatThrownBy(fault::inject).isInstanceOf(FaultRefusedException.class);
    assertThat(fault.state()).isEqualTo(Map.of("workers", List.of()));
  }

  @Test
  void refusesAFaultWithoutTtl() {
    Fault fault = fault(1, null, Contexts.real("burn-nottl", 1, 1));
    assertThatThrownBy(fault::plan)
        .isInstanceOf(FaultRefusedException.class)
        .hasMessageStartingWith(
            "cpu-burn: no ttl; every fault needs a ttl that the injector enforces on its own: add ttl: ");
  }

  @Test
  void aFractionalTtlKeepsItsMilliseconds() throws Exception {
    Fault fault = fault(1, Duration.ofMillis(1500), Contexts.real("burn-ms", 1, 1));
    assertThat(fault.plan())
        .containsExactly(
            "start 1 cpu-burn worker (java ... CpuBurnWorker"
                + " --seconds 1.5 --experiment burn-ms), which exits by itself after 1s500ms");
  }
}
