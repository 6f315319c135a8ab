package dev.firedrill.testing.hostile;

import dev.firedrill.format.ControlChars;
import java.util.Random;
import java.util.function.Consumer;

/**
 * A property checked over generated inputs: try {@code i} draws its input from {@code new
 * Random(seed + i)}, so a failure names the one seed that reproduces it. No shrinking: the
 * failure's input is printed as it was drawn, cut to {@link #EXCERPT} characters.
 *
 * <p>Each test passes a constant seed, so CI draws the same inputs every run; {@code
 * -Dhostile.seed=N} replaces it: a failure's seed as N makes its input the first try, and any other
 * N explores new inputs.
 */
public final class Properties {

  /** The system property that overrides every test's seed. */
  public static final String SEED_PROPERTY = "hostile.seed";

  /** A bound on tries, so that no property runs unbounded. */
  public static final int MAX_TRIES = 1_000_000;

  static final int EXCERPT = 300;

  private Properties() {}

  /**
   * Checks {@code check} on {@code tries} inputs of {@code inputs}, from {@code seed} (or {@code
   * -Dhostile.seed}) on; throws an {@link AssertionError} naming {@code what}, the try's seed and
   * its input on the first input {@code check} fails on (by throwing anything).
   */
  public static <T> void forEach(
      String what, int tries, long seed, Generator<T> inputs, Consumer<? super T> check) {
    if (tries < 1 || tries > MAX_TRIES) {
      throw new IllegalArgumentException("tries from 1 to " + MAX_TRIES + ": " + tries);
    }
    long first = seed(seed);
    for (int i = 0; i < tries; i++) {
      long trySeed = first + i;
      T input = inputs.next(new Random(trySeed));
      try {
        check.accept(input);
      } catch (Throwable t) { // StackOverflowError and OutOfMemoryError too: they are findings
        throw new AssertionError(
            what
                + " failed on try "
                + (i + 1)
                + " of "
                + tries
                + ", seed "
                + trySeed
                + " (rerun with -D"
                + SEED_PROPERTY
                + "="
                + trySeed
                + "): "
                + excerpt(input)
                + ": "
                + t.getMessage(),
            t);
      }
    }
  }

  /** The seed a run starts from: {@code -Dhostile.seed} when given, else the test's. */
  static long seed(long fixed) {
    return seed(fixed, System.getProperty(SEED_PROPERTY));
  }

  static long seed(long fixed, String override) {
    if (override == null || override.isBlank()) {
      return fixed;
    }
    try {
      return Long.parseLong(override.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "-D" + SEED_PROPERTY + " must be a whole number: " + ControlChars.quote(override), e);
    }
  }

  /** {@code input}, control characters quoted, cut to {@link #EXCERPT} characters. */
  static String excerpt(Object input) {
    String text = String.valueOf(input);
    String cut =
        text.length() > EXCERPT
            ? text.substring(0, EXCERPT) + "... (" + text.length() + " chars)"
            : text;
    return "input " + ControlChars.quote(cut);
  }
}
