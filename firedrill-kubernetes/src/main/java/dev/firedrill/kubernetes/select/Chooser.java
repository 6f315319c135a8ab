package dev.firedrill.kubernetes.select;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * The seeded random choice: the same seed, the same candidates and the same count give the same
 * victims, so the journal's seed explains what was chosen. Candidates are sorted by name first,
 * since the API server's list order is not part of its contract.
 */
public final class Chooser {

  private final long seed;
  private final SplittableRandom random;

  public Chooser(long seed) {
    this.seed = seed;
    this.random = new SplittableRandom(seed);
  }

  /** A fresh seed for a new fault. */
  public static long newSeed() {
    return new SplittableRandom().nextLong();
  }

  public long seed() {
    return seed;
  }

  /** A percentage from 0 to {@code max}, both included, as Chaos Mesh draws it. */
  public int percentage(int max) {
    return random.nextInt(max + 1);
  }

  /** {@code count} of {@code candidates}, in name order. */
  public <T> List<T> pick(List<T> candidates, int count, Function<T, String> name) {
    List<T> pool = new ArrayList<>(candidates);
    pool.sort(Comparator.comparing(name));
    for (int i = pool.size() - 1; i > 0; i--) { // Fisher-Yates, so every subset is equally likely
      int j = random.nextInt(i + 1);
      T swap = pool.get(i);
      pool.set(i, pool.get(j));
      pool.set(j, swap);
    }
    List<T> chosen = new ArrayList<>(pool.subList(0, Math.min(count, pool.size())));
    chosen.sort(Comparator.comparing(name));
    return chosen;
  }
}
