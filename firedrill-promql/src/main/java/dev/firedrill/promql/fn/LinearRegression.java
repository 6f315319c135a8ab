package dev.firedrill.promql.fn;

/**
 * Least squares over a window, x in seconds relative to an intercept time (Prometheus's {@code
 * linearRegression}).
 */
final class LinearRegression {

  final double slope;
  final double intercept;

  private LinearRegression(double slope, double intercept) {
    this.slope = slope;
    this.intercept = intercept;
  }

  static LinearRegression fit(long[] t, double[] v, int from, int to, long interceptTimeMs) {
    double n = 0;
    KahanSum sumX = new KahanSum();
    KahanSum sumY = new KahanSum();
    KahanSum sumXY = new KahanSum();
    KahanSum sumX2 = new KahanSum();
    double initY = v[from];
    boolean constY = true;
    for (int i = from; i < to; i++) {
      if (constY && i > from && v[i] != initY) {
        constY = false;
      }
      n += 1.0;
      double x = (t[i] - interceptTimeMs) / 1e3;
      sumX.add(x);
      sumY.add(v[i]);
      sumXY.add(x * v[i]);
      sumX2.add(x * x);
    }
    // A constant series has an exact answer; the general formula would lose it to rounding.
    if (constY) {
      return Double.isInfinite(initY)
          ? new LinearRegression(Double.NaN, Double.NaN)
          : new LinearRegression(0, initY);
    }
    double x = sumX.value();
    double y = sumY.value();
    double covXY = sumXY.value() - x * y / n;
    double varX = sumX2.value() - x * x / n;
    double slope = covXY / varX;
    return new LinearRegression(slope, y / n - slope * x / n);
  }
}
