package dev.firedrill.promql.eval;

/**
 * Prometheus 3's PromQL feature flags ({@code --enable-feature}) the engine can answer with, off
 * unless asked for, as in Prometheus. Prometheus's own PromQL tests run with both on.
 */
public enum Feature {
  /**
   * {@code promql-delayed-name-removal}: a function or operator that drops {@code __name__} only
   * marks it, and the name goes when the query's result is final, so that {@code
   * label_replace(rate(x[1m]), ...)} can still read it and series differing by name alone don't
   * collide in between.
   */
  DELAYED_NAME_REMOVAL("promql-delayed-name-removal"),
  /**
   * {@code use-start-timestamps}: rate, irate, increase and resets read each sample's start
   * timestamp (a reset when it moves past the previous sample; a zero at it rather than
   * extrapolation), and {@code start_timestamp()} reports it.
   */
  USE_START_TIMESTAMPS("use-start-timestamps");

  private final String flag;

  Feature(String flag) {
    this.flag = flag;
  }

  /** The name {@code --enable-feature} gives it. */
  public String flag() {
    return flag;
  }
}
