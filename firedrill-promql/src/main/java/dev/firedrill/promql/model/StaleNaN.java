package dev.firedrill.promql.model;

/**
 * Prometheus's staleness marker: a NaN with a bit pattern of its own, written when a series or
 * target disappears, and never returned by a query. Ordinary NaN sample values stay ordinary.
 */
public final class StaleNaN {

  public static final long BITS = 0x7ff0000000000002L;
  public static final double VALUE = Double.longBitsToDouble(BITS);

  private StaleNaN() {}

  public static boolean is(double value) {
    return Double.doubleToRawLongBits(value) == BITS;
  }
}
