package dev.firedrill.testing;

import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;

/**
 * Both {@link Stacks} pairs for a {@code @ParameterizedTest}'s {@code @MethodSource}, each looked
 * up only when its own run starts: a missing Prometheus 3 skips (or, with {@code CI=true}, fails)
 * the runs against it and leaves the 2.42 runs alone.
 *
 * <pre>{@code @MethodSource("dev.firedrill.testing.EachPair#pairs")}</pre>
 */
public final class EachPair {

  private EachPair() {}

  public static Stream<Named<Supplier<Stacks.Pair>>> pairs() {
    return Stream.of(
        Named.of("prometheus-2.42+alertmanager-0.25", Stacks::stable),
        Named.of("prometheus-3+alertmanager-0.3x", Stacks::current));
  }
}
