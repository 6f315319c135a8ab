package dev.firedrill.promql.parse;

import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.model.PromqlException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Parses PromQL text into a type-checked {@link Expr}: as Prometheus v2.42 parses it (the embedded
 * engine's syntax), or with Prometheus 3's additions (what {@code rules lint} and the floors read).
 */
public final class PromqlParser {

  /** Which grammar to read. */
  public enum Syntax {
    /** Prometheus v2.42's, error for error: what the embedded engine evaluates. */
    PROMETHEUS_2_42,
    /**
     * Prometheus 3.x's, with its experimental features on: bare-number ranges and offsets ({@code
     * [300]}, 3.0), quoted UTF-8 metric and label names (3.0), duration expressions ({@code [5m *
     * 2]}, {@code offset (1h + 5m)}, 3.4; {@code step()}, {@code min}, {@code max}, 3.6; {@code
     * range()}, 3.10), the {@code anchored} and {@code smoothed} modifiers (3.7) and the {@code
     * fill}, {@code fill_left}, {@code fill_right} binary-operator modifiers (3.10), and the
     * functions 3.x added. {@code holt_winters}, gone from 3.0, stays readable so a linter can name
     * it. The engine does not evaluate trees of this syntax.
     */
    PROMETHEUS_3
  }

  // Nesting that any thread's stack takes; deeper queries are parsed on a thread of their own.
  private static final int CALLER_MAX_DEPTH = 300;
  // Go's parser takes any nesting; here a query nested deeper is refused, because a hundred
  // thousand levels took longer than a second to parse on a cold JVM, and no real query is near.
  static final int MAX_NESTING = 30_000;
  // Enough for MAX_NESTING levels of any construct, with room to spare.
  private static final long DEEP_STACK_BYTES = 512L << 20;

  private PromqlParser() {}

  /**
   * @throws PromqlException of type BAD_DATA with Prometheus's wording and position, e.g. {@code
   *     1:14: parse error: unexpected right parenthesis ')'}
   */
  public static Expr parse(String query) {
    return parse(query, Syntax.PROMETHEUS_2_42);
  }

  /** As {@link #parse(String)}, in the given syntax. */
  public static Expr parse(String query, Syntax syntax) {
    return parseLocated(query, syntax).expr();
  }

  /**
   * A parsed query with where its nodes stand, for messages about them after parsing (the API's
   * warnings and infos name the node's line and column, as Prometheus 3's do).
   */
  public record Located(String query, Expr expr, Map<Expr, Integer> starts) {

    /**
     * Prometheus's {@code line:column} of where {@code node} starts (the column in UTF-8 bytes);
     * empty for a node made after parsing.
     */
    public Optional<String> position(Expr node) {
      Integer start = node == null ? null : starts.get(node);
      return start == null ? Optional.empty() : Optional.of(ParseErrors.lineColumn(query, start));
    }
  }

  /** As {@link #parse(String, Syntax)}, with the nodes' positions. */
  public static Located parseLocated(String query, Syntax syntax) {
    try {
      return new Parser(query, CALLER_MAX_DEPTH, syntax).parseLocated();
    } catch (Parser.TooDeep e) {
      // Go's stacks grow, so Prometheus parses any nesting; parsing is pure, so it can run again.
      return parseOnDeepStack(query, syntax);
    }
  }

  private static Located parseOnDeepStack(String query, Syntax syntax) {
    AtomicReference<Located> result = new AtomicReference<>();
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    Thread thread =
        new Thread(
            null,
            () -> {
              try {
                result.set(new Parser(query, MAX_NESTING, syntax).parseLocated());
              } catch (Parser.TooDeep e) {
                failure.set(
                    new PromqlException(
                        PromqlException.ErrorType.BAD_DATA,
                        "1:1: parse error: expression nested more than "
                            + MAX_NESTING
                            + " levels deep"));
              } catch (RuntimeException e) {
                failure.set(e);
              } catch (StackOverflowError e) {
                failure.set(
                    new PromqlException(
                        PromqlException.ErrorType.BAD_DATA,
                        "1:1: parse error: expression nested too deeply (more than a "
                            + (DEEP_STACK_BYTES >> 20)
                            + " MiB stack)"));
              }
            },
            "promql-deep-parse",
            DEEP_STACK_BYTES);
    thread.start();
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PromqlException(PromqlException.ErrorType.CANCELED, "parsing canceled");
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    return result.get();
  }
}
