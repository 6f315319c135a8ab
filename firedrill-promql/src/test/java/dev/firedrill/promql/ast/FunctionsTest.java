package dev.firedrill.promql.ast;

import static dev.firedrill.promql.ast.ValueType.MATRIX;
import static dev.firedrill.promql.ast.ValueType.SCALAR;
import static dev.firedrill.promql.ast.ValueType.STRING;
import static dev.firedrill.promql.ast.ValueType.VECTOR;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Signatures as Prometheus v2.42's {@code functions.go} declares them. */
class FunctionsTest {

  @Test
  void rangeFunctionsTakeARangeVector() {
    assertThat(Functions.byName("rate")).contains(new Function("rate", List.of(MATRIX), 0, VECTOR));
    assertThat(Functions.byName("quantile_over_time"))
        .contains(new Function("quantile_over_time", List.of(SCALAR, MATRIX), 0, VECTOR));
    assertThat(Functions.byName("holt_winters"))
        .contains(new Function("holt_winters", List.of(MATRIX, SCALAR, SCALAR), 0, VECTOR));
  }

  @Test
  void dateFunctionsTakeOneOptionalVector() {
    assertThat(Functions.byName("hour")).contains(new Function("hour", List.of(VECTOR), 1, VECTOR));
  }

  @Test
  void labelJoinTakesAnyNumberOfSourceLabels() {
    assertThat(Functions.byName("label_join"))
        .contains(new Function("label_join", List.of(VECTOR, STRING, STRING, STRING), -1, VECTOR));
  }

  @Test
  void scalarFunctionsReturnScalars() {
    assertThat(Functions.byName("time")).contains(new Function("time", List.of(), 0, SCALAR));
    assertThat(Functions.byName("scalar"))
        .contains(new Function("scalar", List.of(VECTOR), 0, SCALAR));
    assertThat(Functions.byName("vector"))
        .contains(new Function("vector", List.of(SCALAR), 0, VECTOR));
  }

  @Test
  void histogramQuantileReadsClassicBuckets() {
    assertThat(Functions.byName("histogram_quantile"))
        .contains(new Function("histogram_quantile", List.of(SCALAR, VECTOR), 0, VECTOR));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "histogram_count",
        "histogram_sum",
        "histogram_fraction",
        "holt_winters_v3",
        "Rate"
      })
  void nativeHistogramFunctionsAndUnknownNamesAreAbsent(String name) {
    assertThat(Functions.byName(name)).isEmpty();
  }
}
