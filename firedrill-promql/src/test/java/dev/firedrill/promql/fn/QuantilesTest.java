package dev.firedrill.promql.fn;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuantilesTest {

  private static final double INF = Double.POSITIVE_INFINITY;

  @Test
  void quantileInterpolatesBetweenNeighbouringRanks() {
    double[] values = {4, 1, 3, 2};
    assertThat(Quantiles.quantile(0.5, values, 4)).isEqualTo(2.5);
    assertThat(Quantiles.quantile(0.25, values, 4)).isEqualTo(1.75);
    assertThat(Quantiles.quantile(0, values, 4)).isEqualTo(1);
    assertThat(Quantiles.quantile(1, values, 4)).isEqualTo(4);
  }

  @Test
  void quantileReadsOnlyTheFirstCountValuesAndLeavesThemInPlace() {
    double[] values = {3, 1, 100};
    assertThat(Quantiles.quantile(1, values, 2)).isEqualTo(3);
    assertThat(values).containsExactly(3, 1, 100);
  }

  @Test
  void quantileSortsNaNBelowEveryNumber() {
    double[] values = {2, Double.NaN, 1};
    assertThat(Quantiles.quantile(0, values, 3)).isNaN();
    assertThat(Quantiles.quantile(0.5, values, 3)).isEqualTo(1);
    assertThat(Quantiles.quantile(1, values, 3)).isEqualTo(2);
  }

  @Test
  void quantileOutsideZeroToOneIsInfinite() {
    double[] values = {1, 2};
    assertThat(Quantiles.quantile(-0.1, values, 2)).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(Quantiles.quantile(1.1, values, 2)).isEqualTo(INF);
  }

  @Test
  void quantileOfNothingOrAtNaNIsNaN() {
    assertThat(Quantiles.quantile(0.5, new double[0], 0)).isNaN();
    assertThat(Quantiles.quantile(-1, new double[0], 0)).isNaN();
    assertThat(Quantiles.quantile(Double.NaN, new double[] {1}, 1)).isNaN();
  }

  private static double histogram(double phi, double[] bounds, double[] counts) {
    return Quantiles.histogramQuantile(phi, bounds, counts, bounds.length);
  }

  @Test
  void histogramQuantileInterpolatesInsideTheBucket() {
    double[] bounds = {INF, 1, 2};
    double[] counts = {20, 10, 20};
    assertThat(histogram(0.25, bounds, counts)).isEqualTo(0.5);
    assertThat(histogram(0.5, bounds, counts)).isEqualTo(1);
    assertThat(histogram(0.75, bounds, counts)).isEqualTo(1.5);
    assertThat(histogram(1, bounds, counts)).isEqualTo(2);
    assertThat(bounds).containsExactly(INF, 1, 2);
  }

  @Test
  void histogramQuantileInTheInfBucketIsTheHighestFiniteBound() {
    assertThat(histogram(0.9, new double[] {1, INF}, new double[] {10, 20})).isEqualTo(1);
  }

  @Test
  void histogramQuantileWithoutAnInfBucketIsNaN() {
    assertThat(histogram(0.5, new double[] {1, 2}, new double[] {10, 20})).isNaN();
  }

  @Test
  void histogramQuantileNeedsTwoBuckets() {
    assertThat(histogram(0.5, new double[] {INF}, new double[] {10})).isNaN();
  }

  @Test
  void histogramQuantileOfNoObservationsIsNaN() {
    assertThat(histogram(0.5, new double[] {1, INF}, new double[] {0, 0})).isNaN();
  }

  @Test
  void histogramQuantileChecksPhiFirst() {
    double[] noInf = {1, 2};
    double[] counts = {1, 2};
    assertThat(histogram(-0.5, noInf, counts)).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(histogram(1.5, noInf, counts)).isEqualTo(INF);
    assertThat(histogram(Double.NaN, new double[] {1, INF}, counts)).isNaN();
  }

  @Test
  void histogramQuantileInALowestBucketBoundedAtOrBelowZeroIsItsBound() {
    double[] bounds = {-1, 0, INF};
    double[] counts = {5, 10, 10};
    assertThat(histogram(0.25, bounds, counts)).isEqualTo(-1);
    assertThat(histogram(0.75, bounds, counts)).isEqualTo(-0.5);
  }

  @Test
  void histogramQuantileAddsUpBucketsWithTheSameBound() {
    // le="1" and le="1.0": one bucket of 10, so the median is its bound.
    double[] bounds = {1, 1.0, 2, INF};
    double[] counts = {4, 6, 20, 20};
    assertThat(histogram(0.5, bounds, counts)).isEqualTo(1);
    assertThat(histogram(0.75, bounds, counts)).isEqualTo(1.5);
  }

  @Test
  void histogramQuantileRaisesDecreasingCounts() {
    // Read as 10, 10, 15: rank 12 is 2 of the 5 in (2, 3].
    double[] bounds = {1, 2, 3, INF};
    double[] counts = {10, 8, 15, 15};
    assertThat(histogram(0.8, bounds, counts)).isEqualTo(2.4);
    assertThat(counts).containsExactly(10, 8, 15, 15);
  }
}
