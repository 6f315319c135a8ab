package dev.firedrill.fault;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.engine.Cleanup;
import dev.firedrill.engine.FaultProvider;
import dev.firedrill.engine.Journal;
import dev.firedrill.engine.JournalFile;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.proxy.FaultProxy;
import dev.firedrill.proxy.ProxyConfig;
import dev.firedrill.time.Clock;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * firedrill killed inside {@code inject()}, after the fault took effect and before the journal
 * learned its state, and {@code cleanup} well within the ttl: what the journal recorded before the
 * injection (the toxic's name, the workers' tag) is enough to find what was created and remove it,
 * exit 0; a second cleanup has nothing to do.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CleanupWithinTtlTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private final List<AutoCloseable> closing = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : closing) {
      c.close();
    }
  }

  private static FaultContext context(String runId) {
    BlastRadius radius = new BlastRadius(1.0, Duration.ofHours(1), 0.05, 1, 2);
    return new FaultContext(
            "killed-mid-inject",
            radius,
            Duration.ofSeconds(30),
            ProcessTable.system(),
            WorkerLauncher.current(),
            Clock.system())
        .withRunId(runId);
  }

  /**
   * The journal as a run killed inside inject() leaves it: injected true, started_at, and the state
   * known before the injection.
   */
  private JournalFile killedInside(Fault fault) throws Exception {
    ObjectNode root = JSON.createObjectNode();
    root.put("firedrill_journal", Journal.FORMAT);
    root.put("experiment", "killed-mid-inject");
    ObjectNode node = root.putArray("faults").addObject();
    node.put("index", 0);
    node.put("kind", fault.spec().kind());
    node.set("spec", FaultKinds.installed().writeJournal(fault.spec()));
    node.put("started_at", Instant.now().toString());
    node.put("injected", true);
    node.put("reverted", false);
    Map<String, Object> before = fault.stateBeforeInjection().orElseThrow();
    node.set("state", JSON.valueToTree(before));
    JournalFile file = new JournalFile(dir.resolve("journal.json"));
    file.write(Journal.of(root));
    fault.inject(); // the fault takes effect; the journal never hears of it
    return file;
  }

  /** Cleanup's provider, as the CLI wires it: a context of its own with a fresh run id. */
  private static Cleanup.Result cleanup(JournalFile file, List<String> lines) throws Exception {
    FaultContext own = context(RunIds.fresh());
    FaultProvider provider =
        new FaultProvider() {
          @Override
          public Fault create(FaultSpec spec) {
            throw new AssertionError("cleanup creates no fault");
          }

          @Override
          public Fault restore(FaultSpec spec, Map<String, Object> state) throws FaultException {
            return Faults.restore(spec, own, state);
          }
        };
    return new Cleanup(provider, Clock.system()).run(file.read(), file, o -> lines.add(o.line()));
  }

  @Test
  void aToxicPostedJustBeforeTheKillIsFoundByItsNameAndRemoved() throws Exception {
    InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    FaultProxy proxy =
        FaultProxy.start(
            new ProxyConfig(
                "payments",
                ProxyConfig.Mode.HTTP,
                any,
                URI.create("http://127.0.0.1:9"),
                any,
                Optional.empty(),
                Optional.empty()));
    closing.add(proxy::close);
    FaultSpec.HttpToxic spec =
        new FaultSpec.HttpToxic(
            proxy.adminUrl(),
            "payments",
            1,
            new FaultSpec.HttpToxic.Error(503),
            Optional.of(Duration.ofMinutes(5)),
            Optional.empty());
    Fault fault = Faults.create(spec, context("0000abcd"), 0);
    JournalFile file = killedInside(fault);
    assertThat(fault.verify().reverted()).as("the toxic is on the proxy").isFalse();

    List<String> lines = new ArrayList<>();
    Cleanup.Result result = cleanup(file, lines);

    assertThat(result.needsHuman()).as("%s", lines).isFalse();
    assertThat(lines)
        .containsExactly(
            "fault 0 (http-error): reverted: removed toxic firedrill-killed-mid-inject-0000abcd-0"
                + " from proxy payments; verified: the proxy no longer lists it");
    assertThat(fault.verify().reverted()).isTrue();
    List<String> again = new ArrayList<>();
    assertThat(cleanup(file, again).outcomes()).as("%s", again).isEmpty();
  }

  @Test
  void cpuBurnWorkersStartedJustBeforeTheKillAreFoundByTheirTagAndEnded() throws Exception {
    Fault fault =
        Faults.create(
            new FaultSpec.CpuBurn(2, Optional.of(Duration.ofMinutes(1))), context("0000abcd"), 0);
    JournalFile file = killedInside(fault);
    List<ProcessId> workers = Contexts.processIds(fault.state());
    closing.add(() -> Decoys.killAll(ProcessTable.system(), workers));
    assertThat(workers).hasSize(2).allMatch(ProcessTable.system()::alive);
    // Another run's worker of the same experiment and index is not this run's.
    Fault other =
        Faults.create(
            new FaultSpec.CpuBurn(1, Optional.of(Duration.ofMinutes(1))), context("0000ffff"), 0);
    other.inject();
    List<ProcessId> others = Contexts.processIds(other.state());
    closing.add(() -> Decoys.killAll(ProcessTable.system(), others));

    List<String> lines = new ArrayList<>();
    Cleanup.Result result = cleanup(file, lines);

    assertThat(result.needsHuman()).as("%s", lines).isFalse();
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0))
        .startsWith("fault 0 (cpu-burn): reverted: stopped 2 cpu-burn workers")
        .contains("verified: none is running");
    assertThat(workers).noneMatch(ProcessTable.system()::alive);
    assertThat(others).allMatch(ProcessTable.system()::alive);
    List<String> again = new ArrayList<>();
    assertThat(cleanup(file, again).outcomes()).as("%s", again).isEmpty();
  }
}
