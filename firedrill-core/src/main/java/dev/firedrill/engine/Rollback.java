package dev.firedrill.engine;

import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.Verification;
import dev.firedrill.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Reverts started faults in reverse order, each on its own: one failed undo never skips the
 * others. Each revert is verified against the system and retried; when it still fails, the
 * manual command is kept for the console and the journal. Interrupts are held until it is done.
 */
final class Rollback {

  static final int ATTEMPTS = 3;
  static final Duration BACKOFF = Duration.ofMillis(500);

  private final Clock clock;
  private final Journal journal;
  private final BiConsumer<Phase, String> emit;
  private final DrillObserver observer;
  private final List<String> manualCommands = new ArrayList<>();

  Rollback(Clock clock, Journal journal, BiConsumer<Phase, String> emit, DrillObserver observer) {
    this.clock = clock;
    this.journal = journal;
    this.emit = emit;
    this.observer = observer;
  }

  List<String> manualCommands() {
    return List.copyOf(manualCommands);
  }

  void revertAll(List<Fault> started) {
    boolean interrupted = Thread.interrupted();
    for (int i = started.size() - 1; i >= 0; i--) {
      interrupted |= revert(i, started.get(i));
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Returns whether an interrupt arrived (and was held back) during this revert. */
  private boolean revert(int index, Fault fault) {
    observer.on(new Milestone.FaultReverting(index, fault.spec(), clock.now()));
    boolean interrupted = false;
    String detail = "";
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        fault.revert();
        Verification verification = fault.verify();
        if (verification.reverted()) {
          journal.faultRevert(index, clock.now(), true, attempt, verification.detail(), null);
          emit.accept(Phase.ROLLBACK, fault.spec().kind() + ": " + verification.detail() + " (attempt " + attempt + ")");
          observer.on(new Milestone.FaultReverted(index, fault.spec(), clock.now(), true));
          return interrupted;
        }
        detail = "still present after revert: " + verification.detail();
      } catch (FaultException e) {
        detail = e.getMessage();
      } catch (RuntimeException e) {
        detail = "unexpected error: " + e;
      }
      if (attempt < ATTEMPTS) {
        interrupted |= pause(BACKOFF.multipliedBy(attempt));
      }
    }
    String manual = fault.manualRevertCommand();
    manualCommands.add(manual);
    journal.faultRevert(index, clock.now(), false, ATTEMPTS, detail, manual);
    emit.accept(Phase.ROLLBACK, fault.spec().kind() + ": FAILED after " + ATTEMPTS + " attempts: " + detail
        + "; run by hand: " + manual);
    observer.on(new Milestone.FaultReverted(index, fault.spec(), clock.now(), false));
    return interrupted;
  }

  /** Waits without letting an interrupt cut the rollback short; reports whether one came. */
  private boolean pause(Duration duration) {
    try {
      clock.sleep(duration);
      return false;
    } catch (InterruptedException e) {
      return true;
    }
  }
}
