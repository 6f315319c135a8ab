package dev.firedrill.testing.hostile;

import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * Draws one input from a {@link Random}; the whole input follows from the random's seed, so a
 * failing input is reproduced by naming its seed (see {@link Properties}).
 */
@FunctionalInterface
public interface Generator<T> {

  T next(Random random);

  default <R> Generator<R> map(Function<? super T, ? extends R> f) {
    return random -> f.apply(next(random));
  }

  default <R> Generator<R> flatMap(Function<? super T, Generator<? extends R>> f) {
    return random -> f.apply(next(random)).next(random);
  }

  /** Always {@code value}. */
  static <T> Generator<T> constant(T value) {
    return random -> value;
  }

  /** One of {@code values}, each as likely. */
  @SafeVarargs
  static <T> Generator<T> oneOf(T... values) {
    return oneOf(List.of(values));
  }

  /** One of {@code values}, each as likely. */
  static <T> Generator<T> oneOf(List<? extends T> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("nothing to choose from");
    }
    List<T> copy = List.copyOf(values);
    return random -> copy.get(random.nextInt(copy.size()));
  }

  /** An int from {@code min} to {@code max}, both included. */
  static Generator<Integer> between(int min, int max) {
    return random -> min + random.nextInt(max - min + 1);
  }

  /** A generator and its relative weight, for {@link #frequency}. */
  record Weighted<T>(int weight, Generator<? extends T> generator) {
    public Weighted {
      if (weight <= 0) {
        throw new IllegalArgumentException("weights are positive: " + weight);
      }
    }
  }

  /** {@code generator} with {@code weight}, for {@link #frequency}. */
  static <T> Weighted<T> weighted(int weight, Generator<? extends T> generator) {
    return new Weighted<>(weight, generator);
  }

  /**
   * One of the generators, drawn by weight (weights are relative: 50 and 8 mean 50 in 58 and 8 in
   * 58).
   */
  static <T> Generator<T> frequency(List<Weighted<T>> choices) {
    if (choices.isEmpty()) {
      throw new IllegalArgumentException("nothing to choose from");
    }
    List<Weighted<T>> copy = List.copyOf(choices);
    int[] cumulative = new int[copy.size()];
    int total = 0;
    for (int i = 0; i < copy.size(); i++) {
      total += copy.get(i).weight();
      cumulative[i] = total;
    }
    int sum = total;
    return random -> {
      int draw = random.nextInt(sum);
      int i = 0;
      while (cumulative[i] <= draw) {
        i++;
      }
      return copy.get(i).generator().next(random);
    };
  }
}
