package dev.firedrill.watchdog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.Verification;
import dev.firedrill.time.VirtualClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watchdog's judgement on a virtual clock, over real files: when a lease counts as lost, when a
 * ttl ends, what is recorded and when it stops. The restored fault is a flag here; the real faults
 * and the real watchdog process are in WatchdogTest and SigkillIT.
 */
class KeeperTest {

  private static final Instant START = Instant.parse("2026-12-02T10:00:00Z");
  private static final FaultSpec SPEC =
      new FaultSpec.CpuBurn(1, Optional.of(Duration.ofMinutes(5)));

  @TempDir Path dir;

  private final VirtualClock clock = new VirtualClock(START);
  private final List<String> calls = new ArrayList<>();
  private int revertFailures;
  private final ByteArrayOutputStream log = new ByteArrayOutputStream();

  private WatchdogFiles files() {
    return WatchdogFiles.beside(dir.resolve("j.json"));
  }

  private Keeper keeper() {
    return new Keeper(
        files(),
        clock,
        (holds, hold) -> new Flag(),
        new PrintStream(log, true, StandardCharsets.UTF_8));
  }

  private void hold(Duration ttl, boolean done) throws Exception {
    new Holds(
            "exp",
            Duration.ofMinutes(1),
            List.of(
                new Hold(
                    0,
                    "cpu-burn",
                    JsonNodeFactory.instance.objectNode(),
                    JsonNodeFactory.instance.objectNode(),
                    ttl,
                    START.plus(ttl),
                    done)))
        .write(files().holds());
  }

  private long sequence;

  private void lease(boolean ended) throws Exception {
    new Lease(++sequence, Duration.ofSeconds(30), ended, clock.now()).write(files().lease());
  }

  @Test
  void aLeaseRenewedInTimeHoldsAndOneLeftForItsGraceUndoesTheFault() throws Exception {
    hold(Duration.ofHours(1), false);
    lease(false);
    Keeper keeper = keeper();
    for (int i = 0; i < 10; i++) {
      lease(false);
      assertThat(keeper.tick()).isTrue();
      clock.sleep(Duration.ofSeconds(20));
    }
    assertThat(calls).isEmpty();

    // Last renewal seen 20s ago; 11s more makes 31s, past the 30s grace.
    clock.sleep(Duration.ofSeconds(11));
    assertThat(keeper.tick()).as("nothing left to hold").isFalse();
    assertThat(calls).containsExactly("revert", "verify");
    WatchdogRecord.Entry entry = WatchdogRecord.read(files().record()).last(0).orElseThrow();
    assertThat(entry.ok()).isTrue();
    assertThat(entry.why()).isEqualTo("firedrill did not renew its lease for 30s");
    assertThat(entry.detail()).isEqualTo("flag lowered");
    assertThat(entry.at()).isEqualTo(clock.now());
  }

  @Test
  void aTtlRunsOutWhileTheLeaseIsRenewed() throws Exception {
    hold(Duration.ofSeconds(50), false);
    lease(false);
    Keeper keeper = keeper();
    assertThat(keeper.tick()).isTrue();
    clock.sleep(Duration.ofSeconds(25));
    lease(false);
    assertThat(keeper.tick()).isTrue();
    clock.sleep(Duration.ofSeconds(25));
    lease(false);
    assertThat(keeper.tick()).isFalse();
    assertThat(WatchdogRecord.read(files().record()).last(0).orElseThrow().why())
        .isEqualTo("its ttl of 50s ran out");
  }

  @Test
  void aRevertThatKeepsFailingIsRecordedAfterThreeAttempts() throws Exception {
    revertFailures = 5;
    hold(Duration.ofSeconds(1), false);
    lease(false);
    Keeper keeper = keeper();
    assertThat(keeper.tick()).as("the ttl counts from the first sight of the hold").isTrue();
    clock.sleep(Duration.ofSeconds(2));
    assertThat(keeper.tick()).isTrue();
    assertThat(keeper.tick()).isTrue();
    assertThat(WatchdogRecord.read(files().record()).entries()).isEmpty();
    assertThat(keeper.tick()).isFalse();
    WatchdogRecord.Entry entry = WatchdogRecord.read(files().record()).last(0).orElseThrow();
    assertThat(entry.ok()).isFalse();
    assertThat(entry.detail()).isEqualTo("the flag is stuck (after 3 attempts)");
    assertThat(entry.manual()).isEqualTo("lower the flag");
    assertThat(entry.line()).startsWith("the watchdog could not undo it at ");
  }

  @Test
  void whatFiredrillReleasedIsLeftAloneAndAnEndedRunStopsIt() throws Exception {
    hold(Duration.ofSeconds(1), true);
    lease(true);
    clock.sleep(Duration.ofMinutes(5));
    assertThat(keeper().tick()).isFalse();
    assertThat(calls).isEmpty();
  }

  @Test
  void aRunThatEndedWithAHoldPendingIsUndoneAtOnce() throws Exception {
    hold(Duration.ofHours(1), false);
    lease(true);
    assertThat(keeper().tick()).isFalse();
    assertThat(WatchdogRecord.read(files().record()).last(0).orElseThrow().why())
        .isEqualTo("firedrill ended without undoing it");
  }

  /** A fault that is a flag: revert lowers it, or fails while failures are left. */
  private final class Flag implements Fault {
    private boolean lowered;

    @Override
    public FaultSpec spec() {
      return SPEC;
    }

    @Override
    public List<String> plan() {
      return List.of();
    }

    @Override
    public void inject() {}

    @Override
    public void revert() throws FaultException {
      calls.add("revert");
      if (revertFailures > 0) {
        revertFailures--;
        throw new FaultException("the flag is stuck");
      }
      lowered = true;
    }

    @Override
    public Verification verify() {
      calls.add("verify");
      return lowered ? Verification.reverted("flag lowered") : Verification.remaining("flag up");
    }

    @Override
    public String manualRevertCommand() {
      return "lower the flag";
    }

    @Override
    public Map<String, Object> state() {
      return Map.of();
    }
  }
}
