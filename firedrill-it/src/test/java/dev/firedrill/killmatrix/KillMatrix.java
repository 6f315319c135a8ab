package dev.firedrill.killmatrix;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The kill matrix: {@code trials} drills from the packaged jar, each of one fault kind with a
 * second fault beside it, each SIGKILLed at a seeded point across the drill's phase boundaries,
 * each checked by {@link Trial}. The seed makes a failing run repeatable.
 */
final class KillMatrix {

  static final Duration DURATION = Duration.ofMillis(1500);
  static final Duration RECOVERY = Duration.ofMillis(1000);

  /** Short, so a trial waits little for it; the method fits inside it. */
  static final Duration TTL = Duration.ofMillis(4000);

  /** The quiet alert's window from injection: the wait for alerts outlasts the recovery. */
  static final Duration WITHIN = Duration.ofMillis(4000);

  /** What a run found, over all its trials. */
  record Figures(
      long seed, int lanes, List<Trial.Result> results, Duration took, List<String> notDrilled) {

    long leftBehind() {
      return results.stream().filter(r -> !r.leftBehind().isEmpty()).count();
    }

    long unreadableJournals() {
      return results.stream().filter(r -> !r.journalReadable()).count();
    }

    Duration longestKillToClean() {
      return results.stream()
          .map(Trial.Result::killToClean)
          .max(Duration::compareTo)
          .orElse(Duration.ZERO);
    }

    List<String> problems() {
      List<String> all = new ArrayList<>();
      for (Trial.Result r : results) {
        for (String problem : r.problems()) {
          all.add(
              "trial "
                  + r.number()
                  + " ("
                  + r.kind().kind
                  + ", aimed "
                  + r.aimed()
                  + ", landed "
                  + r.landed().words
                  + ", cleanup "
                  + r.cleanupAt()
                  + "): "
                  + problem);
        }
      }
      return all;
    }

    /** The figures in lines, for the test's output and the benchmark's report. */
    List<String> lines() {
      List<String> lines = new ArrayList<>();
      lines.add(
          String.format(
              Locale.ROOT,
              "kill matrix, seed %d: %d trials in %.0f s (%d at a time); faults left behind: %d; unreadable"
                  + " journals: %d; longest kill-to-clean: %.1f s",
              seed,
              results.size(),
              took.toMillis() / 1000.0,
              lanes,
              leftBehind(),
              unreadableJournals(),
              longestKillToClean().toMillis() / 1000.0));
      Map<KillPoint.Phase, Integer> landed = new EnumMap<>(KillPoint.Phase.class);
      Map<KillPoint.Phase, Duration> longest = new EnumMap<>(KillPoint.Phase.class);
      for (Trial.Result r : results) {
        landed.merge(r.landed(), 1, Integer::sum);
        longest.merge(r.landed(), r.killToClean(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
      }
      landed.forEach(
          (phase, count) ->
              lines.add(
                  String.format(
                      Locale.ROOT,
                      "  killed %-30s %4d trials, longest kill-to-clean %.1f s",
                      phase.words,
                      count,
                      longest.get(phase).toMillis() / 1000.0)));
      Map<FaultKind, List<Trial.Result>> kinds = new EnumMap<>(FaultKind.class);
      results.forEach(r -> kinds.computeIfAbsent(r.kind(), k -> new ArrayList<>()).add(r));
      lines.add("  fault 0 of each trial (fault 1: http-latency), its ttl enforced by:");
      kinds.forEach(
          (kind, of) ->
              lines.add(
                  String.format(
                      Locale.ROOT,
                      "    %-20s %4d trials, %d left something behind, longest kill-to-clean %.1f"
                          + " s; ttl: %s (%s)",
                      kind.kind,
                      of.size(),
                      of.stream().filter(r -> !r.leftBehind().isEmpty()).count(),
                      of.stream()
                              .map(Trial.Result::killToClean)
                              .max(Duration::compareTo)
                              .orElse(Duration.ZERO)
                              .toMillis()
                          / 1000.0,
                      kind.enforcer,
                      kind.how)));
      notDrilled.forEach(why -> lines.add("  not drilled on this machine: " + why));
      Map<Integer, Integer> exits = new TreeMap<>();
      results.forEach(r -> exits.merge(r.cleanupExit(), 1, Integer::sum));
      lines.add("  cleanup's last exit code -> trials (-1: no journal, so no cleanup): " + exits);
      long atOnce = results.stream().filter(r -> r.cleanupAt() == Trial.CleanupAt.AT_ONCE).count();
      long sevens = results.stream().filter(r -> r.cleanupExit() == 7).count();
      lines.add(
          "  cleanup at once (within the ttl) in "
              + atOnce
              + " trials, after the ttl in "
              + (results.size() - atOnce)
              + "; cleanup's last exit 7 (a human needed) in "
              + sevens);
      return lines;
    }
  }

  private KillMatrix() {}

  /**
   * Runs the trials {@code lanes} at a time (each has its own experiment id, decoy and files; the
   * proxy and Prometheus are shared, as a team's would be), starting no trial once {@code budget}
   * has passed; trial {@code n}'s draws come from {@code seed} and {@code n} alone, so a run
   * repeats whatever the lanes' interleaving.
   */
  static Figures run(
      MatrixLab lab,
      Path dir,
      long seed,
      int trials,
      int lanes,
      Duration budget,
      Consumer<Trial.Result> each)
      throws Exception {
    long start = System.nanoTime();
    long deadline = start + budget.toNanos();
    AtomicInteger next = new AtomicInteger();
    List<Trial.Result> results = Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(lanes);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int lane = 0; lane < lanes; lane++) {
        futures.add(
            pool.submit(
                () -> {
                  while (System.nanoTime() - deadline < 0) {
                    int number = next.getAndIncrement();
                    if (number >= trials) {
                      return null;
                    }
                    // SplittableRandom mixes its seed: java.util.Random's first draws from nearby
                    // seeds are alike (every trial had cleaned up at once).
                    Trial.Result result =
                        new Trial(
                                lab, dir, number, new SplittableRandom(seed * 1_000_003L + number))
                            .run();
                    results.add(result);
                    each.accept(result);
                  }
                  return null;
                }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    } finally {
      pool.shutdownNow();
    }
    List<Trial.Result> sorted = new ArrayList<>(results);
    sorted.sort(Comparator.comparingInt(Trial.Result::number));
    return new Figures(
        seed, lanes, sorted, Duration.ofNanos(System.nanoTime() - start), lab.notDrilled());
  }
}
