package dev.firedrill.engine;

import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.Verification;
import dev.firedrill.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * Reverts started faults in reverse order, each on its own: one failed undo never skips the others.
 * Each revert is verified against the system and retried; when it still fails, the manual command
 * is kept for the drill's result and its last milestone. Interrupts are held until it is done.
 */
final class Rollback {

  static final int ATTEMPTS = 3;
  static final Duration BACKOFF = Duration.ofMillis(500);

  private final Clock clock;
  private final Supplier<Duration> offset;
  private final DrillObserver observer;
  private final IntConsumer reverted;
  private final List<String> manualCommands = new ArrayList<>();
  private final List<String> unrecovered = new ArrayList<>();

  /**
   * {@code offset}: the drill's time since it began, which every milestone carries; {@code
   * reverted} hears the index of each fault whose revert was verified (the watchdog drops it).
   */
  Rollback(Clock clock, Supplier<Duration> offset, DrillObserver observer, IntConsumer reverted) {
    this.clock = clock;
    this.offset = offset;
    this.observer = observer;
    this.reverted = reverted;
  }

  List<String> manualCommands() {
    return List.copyOf(manualCommands);
  }

  /** What faults with nothing left to undo said of targets that did not come back. */
  List<String> unrecovered() {
    return List.copyOf(unrecovered);
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
    observer.on(new Milestone.FaultReverting(index, fault.spec(), clock.now(), offset.get()));
    boolean interrupted = false;
    String detail = "";
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        fault.revert();
        Verification verification = fault.verify();
        if (verification.reverted()) {
          if (!verification.recovered()) {
            unrecovered.add(fault.spec().kind() + ": " + verification.detail());
          }
          observer.on(
              new Milestone.FaultReverted(
                  index,
                  fault.spec(),
                  attempt,
                  verification.detail(),
                  Optional.empty(),
                  clock.now(),
                  offset.get()));
          reverted.accept(index);
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
    observer.on(
        new Milestone.FaultReverted(
            index, fault.spec(), ATTEMPTS, detail, Optional.of(manual), clock.now(), offset.get()));
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
