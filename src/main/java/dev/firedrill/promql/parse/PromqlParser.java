package dev.firedrill.promql.parse;

import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.model.PromqlException;
import java.util.concurrent.atomic.AtomicReference;

/** Parses PromQL text into a type-checked {@link Expr}, as Prometheus v2.42 parses it. */
public final class PromqlParser {

  // Nesting that any thread's stack takes; deeper queries are parsed on a thread of their own.
  private static final int CALLER_MAX_DEPTH = 300;
  // Enough for nesting a million levels deep.
  private static final long DEEP_STACK_BYTES = 512L << 20;

  private PromqlParser() {}

  /**
   * @throws PromqlException of type BAD_DATA with Prometheus's wording and position, e.g.
   *     {@code 1:14: parse error: unexpected right parenthesis ')'}
   */
  public static Expr parse(String query) {
    try {
      return new Parser(query, CALLER_MAX_DEPTH).parse();
    } catch (Parser.TooDeep e) {
      // Go's stacks grow, so Prometheus parses any nesting; parsing is pure, so it can run again.
      return parseOnDeepStack(query);
    }
  }

  private static Expr parseOnDeepStack(String query) {
    AtomicReference<Expr> result = new AtomicReference<>();
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    Thread thread = new Thread(null, () -> {
      try {
        result.set(new Parser(query, Integer.MAX_VALUE).parse());
      } catch (RuntimeException e) {
        failure.set(e);
      } catch (StackOverflowError e) {
        failure.set(new PromqlException(PromqlException.ErrorType.BAD_DATA,
            "1:1: parse error: expression nested too deeply (more than a " + (DEEP_STACK_BYTES >> 20) + " MiB stack)"));
      }
    }, "promql-deep-parse", DEEP_STACK_BYTES);
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
