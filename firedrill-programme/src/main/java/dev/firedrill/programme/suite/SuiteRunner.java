package dev.firedrill.programme.suite;

import dev.firedrill.programme.lock.TargetLocks;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs a suite's drills one after another. Between two drills it waits through the {@link
 * Cooldown}; a drill that was aborted, could not inject, or left a rollback for a human stops the
 * suite unless {@code keepGoing} (its own rollback has run by then: the launcher's drill always
 * rolls back). A cooldown that runs out does not stop the suite: the next drill's preflight sees an
 * alert still firing or a system outside its steady state and is not-run, which says why.
 */
public final class SuiteRunner {

  private final DrillLauncher launcher;
  private final Cooldown cooldown;
  private final SuiteListener listener;
  private final Optional<TargetLocks> locks;

  public SuiteRunner(DrillLauncher launcher, Cooldown cooldown, SuiteListener listener) {
    this(launcher, cooldown, listener, Optional.empty());
  }

  /** {@code locks}: each drill first takes its targets' locks, and is not-run when it cannot. */
  public SuiteRunner(
      DrillLauncher launcher,
      Cooldown cooldown,
      SuiteListener listener,
      Optional<TargetLocks> locks) {
    this.launcher = launcher;
    this.cooldown = cooldown;
    this.listener = listener;
    this.locks = locks;
  }

  public SuiteResult run(Suite suite, boolean keepGoing) throws InterruptedException {
    List<Suite.Entry> entries = suite.entries();
    int total = entries.size();
    List<SuiteResult.Drill> drills = new ArrayList<>();
    SuiteResult.Ran previous = null;
    for (int i = 0; i < total; i++) {
      Suite.Entry entry = entries.get(i);
      int index = i + 1;
      if (previous != null && previous.stopsSuite() && !keepGoing) {
        String why =
            "not run: drill "
                + i
                + " ("
                + previous.entry().experiment().id()
                + ") ended "
                + ending(previous)
                + "; --keep-going runs the rest";
        listener.stopping(index, total, why);
        for (Suite.Entry rest : entries.subList(i, total)) {
          drills.add(new SuiteResult.Skipped(rest, why));
        }
        break;
      }
      Optional<Cooldown.Waited> waited = Optional.empty();
      if (previous != null) {
        listener.coolingDown(index, total, previous.entry());
        Cooldown.Waited w =
            cooldown.await(previous.entry(), previous.launched().result(), suite.cooldown());
        listener.cooledDown(index, total, w);
        waited = Optional.of(w);
      }
      listener.drillStarting(index, total, entry);
      TargetLocks.Outcome lock;
      try {
        lock =
            locks.isPresent()
                ? locks.get().tryLock(entry.experiment())
                : new TargetLocks.Taken(() -> {});
      } catch (IOException e) {
        lock =
            new TargetLocks.Refused(
                new TargetLocks.Busy("(the lock directory)", "unknown: " + e.getMessage()));
      }
      if (lock instanceof TargetLocks.Refused refused) {
        String why = "not-run: " + refused.busy().text();
        listener.locked(index, total, why);
        drills.add(new SuiteResult.Locked(entry, why));
        continue;
      }
      SuiteResult.Ran ran;
      TargetLocks.Held held = ((TargetLocks.Taken) lock).held();
      try {
        ran = new SuiteResult.Ran(entry, launcher.launch(entry, index, total), waited);
      } finally {
        held.close();
      }
      listener.drillEnded(index, total, ran);
      drills.add(ran);
      previous = ran;
    }
    return new SuiteResult(suite, drills);
  }

  private static String ending(SuiteResult.Ran ran) {
    if (!ran.launched().result().rollbackOk()) {
      return "with a rollback that needs a human";
    }
    return ran.launched().result().verdict().text();
  }
}
