package dev.firedrill.programme.suite;

import dev.firedrill.engine.Verdict;
import java.util.List;
import java.util.Optional;

/** Every drill of a suite in order: run, with its cooldown before it, or skipped, with why. */
public record SuiteResult(Suite suite, List<Drill> drills) {

  /** The exit code of a failed rollback: it outranks everything. */
  public static final int ROLLBACK_FAILED = 7;

  /**
   * The order in which a drill's exit code is worse than another's, worst first: a rollback that
   * needs a human, then a fault that could not be injected, an abort, a refusal, a broken
   * hypothesis, a drill that proved nothing, one that never ran, and a held one.
   */
  private static final List<Integer> WORST_FIRST = List.of(7, 6, 3, 2, 1, 4, 5, 0);

  public SuiteResult {
    drills = List.copyOf(drills);
  }

  public sealed interface Drill permits Ran, Skipped, Locked {
    Suite.Entry entry();
  }

  /** A drill that ran; {@code cooldown} is the wait before it (none for the first). */
  public record Ran(
      Suite.Entry entry, DrillLauncher.Launched launched, Optional<Cooldown.Waited> cooldown)
      implements Drill {

    /** Aborted, failed to inject, or left something a human must undo: the suite stops here. */
    public boolean stopsSuite() {
      Verdict verdict = launched.result().verdict();
      return !launched.result().rollbackOk()
          || verdict == Verdict.ABORTED
          || verdict == Verdict.FAILED;
    }
  }

  /** A drill the suite did not run because an earlier one stopped it. */
  public record Skipped(Suite.Entry entry, String reason) implements Drill {}

  /**
   * A drill that did not run because another run holds one of its targets: not-run, and the suite
   * goes on.
   */
  public record Locked(Suite.Entry entry, String reason) implements Drill {}

  public List<Ran> ran() {
    return drills.stream().filter(Ran.class::isInstance).map(Ran.class::cast).toList();
  }

  /**
   * The worst drill's exit code (see {@link #WORST_FIRST}); a skipped or locked drill is not-run.
   */
  public int exitCode() {
    int worst = 0;
    for (Drill drill : drills) {
      int code = drill instanceof Ran ran ? ran.launched().exitCode() : 5;
      if (rank(code) < rank(worst)) {
        worst = code;
      }
    }
    return worst;
  }

  private static int rank(int code) {
    int rank = WORST_FIRST.indexOf(code);
    return rank < 0 ? 0 : rank; // a code no drill returns today is taken as the worst
  }
}
