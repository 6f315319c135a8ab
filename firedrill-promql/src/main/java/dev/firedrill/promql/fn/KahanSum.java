package dev.firedrill.promql.fn;

/**
 * Neumaier-compensated summation, as Prometheus's {@code kahanSumInc}: the compensation is kept
 * apart so that callers can leave it out when the sum is infinite (Inf + -Inf compensation is NaN).
 */
final class KahanSum {

  double sum;
  double c;

  void add(double inc) {
    double t = sum + inc;
    if (Math.abs(sum) >= Math.abs(inc)) {
      c += (sum - t) + inc;
    } else {
      c += (inc - t) + sum;
    }
    sum = t;
  }

  double value() {
    return sum + c;
  }
}
