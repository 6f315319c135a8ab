package dev.firedrill.promql.eval;

import static dev.firedrill.promql.eval.Exprs.at;
import static dev.firedrill.promql.eval.Exprs.engine;
import static dev.firedrill.promql.eval.Exprs.offset;
import static dev.firedrill.promql.eval.Exprs.range;
import static dev.firedrill.promql.eval.Exprs.sel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.ast.ValueType;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.promql.model.StaleNaN;
import org.junit.jupiter.api.Test;

class EvalSelectorsTest {

  private static final LabelSet METRIC = LabelSet.of("__name__", "metric");

  private static double single(Value v) {
    Value.Vector vector = (Value.Vector) v;
    assertThat(vector.samples()).hasSize(1);
    return vector.samples().get(0).value();
  }

  @Test
  void instantSelectorTakesNewestSampleWithinLookbackInclusive() {
    Exprs.Store store = new Exprs.Store().series(METRIC, 10_000, 0.0, 1.0, null, 2.0);
    Engine engine = engine(store);

    assertThat(single(engine.instant(sel("metric"), 25_000))).isEqualTo(1.0);
    assertThat(single(engine.instant(sel("metric"), 330_000))).isEqualTo(2.0);
    assertThat(((Value.Vector) engine.instant(sel("metric"), 330_001)).samples()).isEmpty();
  }

  @Test
  void staleMarkerAsNewestSampleHidesTheSeries() {
    Exprs.Store store = new Exprs.Store().series(METRIC, 10_000, 0.0, 1.0, StaleNaN.VALUE, 2.0);
    Engine engine = engine(store);

    assertThat(((Value.Vector) engine.instant(sel("metric"), 20_000)).samples()).isEmpty();
    assertThat(single(engine.instant(sel("metric"), 30_000))).isEqualTo(2.0);
  }

  @Test
  void vectorKeepsLabelsAndStampsEvaluationTime() {
    Exprs.Store store = new Exprs.Store().add(LabelSet.of("__name__", "up", "job", "a"), 1_000, 1);

    Value.Vector v = (Value.Vector) engine(store).instant(sel("up"), 7_000);

    assertThat(v.samples())
        .containsExactly(new Value.Sample(LabelSet.of("__name__", "up", "job", "a"), 7_000, 1));
  }

  @Test
  void offsetAndAtMoveTheReferenceTime() {
    Exprs.Store store = new Exprs.Store().series(METRIC, 60_000, 0.0, 1.0, 2.0, 3.0, 4.0);
    Engine engine = engine(store);

    assertThat(single(engine.instant(offset(sel("metric"), 120_000), 240_000))).isEqualTo(2.0);
    assertThat(single(engine.instant(at(sel("metric"), 60_000), 240_000))).isEqualTo(1.0);
    assertThat(single(engine.instant(offset(at(sel("metric"), 180_000), 60_000), 0)))
        .isEqualTo(2.0);
  }

  @Test
  void atStartAndEndAreTheRangeQuerysBounds() {
    Exprs.Store store = new Exprs.Store().series(METRIC, 60_000, 0.0, 1.0, 2.0, 3.0, 4.0);
    Expr.VectorSelector s = sel("metric");
    Expr atEnd =
        new Expr.VectorSelector(s.name(), s.matchers(), 0, new Expr.At(Expr.At.Kind.END, 0));

    Value.Matrix m = engine(store).range(atEnd, 60_000, 180_000, 60_000);

    assertThat(m.series()).hasSize(1);
    assertThat(m.series().get(0).values()).containsExactly(3.0, 3.0, 3.0);
  }

  @Test
  void expressionPinnedByAtIsTheSameAtEveryStep() {
    Exprs.Store store = new Exprs.Store().series(METRIC, 60_000, 0.0, 1.0, 2.0, 3.0, 4.0);
    Expr pinned =
        Exprs.call("sum_over_time", ValueType.VECTOR, range(at(sel("metric"), 120_000), 120_000));

    Value.Matrix m = engine(store).range(pinned, 0, 240_000, 60_000);

    assertThat(m.series().get(0).timestampsMs())
        .containsExactly(0L, 60_000L, 120_000L, 180_000L, 240_000L);
    assertThat(m.series().get(0).values()).containsExactly(3.0, 3.0, 3.0, 3.0, 3.0);
  }

  @Test
  void rangeSelectorKeepsSamplesInClosedWindowWithoutStaleMarkers() {
    Exprs.Store store = new Exprs.Store().series(METRIC, 10_000, 0.0, 1.0, StaleNaN.VALUE, 2.0);

    Value.Matrix m = (Value.Matrix) engine(store).instant(range(sel("metric"), 20_000), 30_000);

    assertThat(m.series()).hasSize(1);
    assertThat(m.series().get(0).timestampsMs()).containsExactly(10_000L, 30_000L);
    assertThat(m.series().get(0).values()).containsExactly(1.0, 2.0);
  }

  @Test
  void rangeQueryReadsTheSourceOncePerSelector() {
    Exprs.Store store = new Exprs.Store();
    for (int i = 0; i < 3; i++) {
      store.series(
          LabelSet.of("__name__", "metric", "i", "" + i),
          15_000,
          1.0,
          2.0,
          3.0,
          4.0,
          5.0,
          6.0,
          7.0,
          8.0);
    }

    Value.Matrix m = engine(store).range(sel("metric"), 0, 105_000, 15_000);

    assertThat(store.selects).isEqualTo(1);
    assertThat(m.series()).hasSize(3);
    assertThat(m.series().get(2).values()).containsExactly(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0);
  }

  @Test
  void rangeQueryOfRangeFunctionSlidesWindowsOverOneRead() {
    Exprs.Store store =
        new Exprs.Store().series(METRIC, 15_000, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0);

    Value.Matrix m =
        engine(store)
            .range(
                Exprs.call("count_over_time", ValueType.VECTOR, range(sel("metric"), 30_000)),
                30_000,
                105_000,
                15_000);

    assertThat(store.selects).isEqualTo(1);
    assertThat(m.series().get(0).values()).containsExactly(3.0, 3.0, 3.0, 3.0, 3.0, 3.0);
  }

  @Test
  void subqueryStepsAreMultiplesOfTheStep() {
    Exprs.Store store = new Exprs.Store().series(METRIC, 10_000, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
    Expr sub = new Expr.Subquery(sel("metric"), 35_000, 20_000, 0, null);

    Value.Matrix m = (Value.Matrix) engine(store).instant(sub, 55_000);

    assertThat(m.series().get(0).timestampsMs()).containsExactly(20_000L, 40_000L);
    assertThat(m.series().get(0).values()).containsExactly(2.0, 4.0);
  }

  @Test
  void rangeQueryOfRangeVectorIsRefused() {
    Exprs.Store store = new Exprs.Store();

    assertThatThrownBy(() -> engine(store).range(range(sel("metric"), 60_000), 0, 60_000, 15_000))
        .isInstanceOf(PromqlException.class)
        .hasMessage(
            "invalid expression type \"range vector\" for range query, must be Scalar or instant Vector")
        .extracting(e -> ((PromqlException) e).errorType())
        .isEqualTo(PromqlException.ErrorType.BAD_DATA);
  }

  @Test
  void prometheus3LeavesTheLookbackOpenAtItsStart() {
    Exprs.Store store = new Exprs.Store().series(METRIC, 10_000, 0.0, 1.0, null, 2.0);
    Engine engine = engine(store, Compat.PROMETHEUS_3);

    assertThat(single(engine.instant(sel("metric"), 329_999))).isEqualTo(2.0);
    assertThat(((Value.Vector) engine.instant(sel("metric"), 330_000)).samples()).isEmpty();
  }

  @Test
  void prometheus3RangeSelectorLeavesOutTheSampleAtTheWindowsStart() {
    Exprs.Store store = new Exprs.Store().series(METRIC, 10_000, 0.0, 1.0, StaleNaN.VALUE, 2.0);

    Value.Matrix m =
        (Value.Matrix)
            engine(store, Compat.PROMETHEUS_3).instant(range(sel("metric"), 20_000), 30_000);

    assertThat(m.series().get(0).timestampsMs()).containsExactly(30_000L);
  }

  @Test
  void prometheus3RangeFunctionWindowsAreLeftOpen() {
    Exprs.Store store =
        new Exprs.Store().series(METRIC, 15_000, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0);

    Value.Matrix m =
        engine(store, Compat.PROMETHEUS_3)
            .range(
                Exprs.call("count_over_time", ValueType.VECTOR, range(sel("metric"), 30_000)),
                30_000,
                105_000,
                15_000);

    assertThat(m.series().get(0).values()).containsExactly(2.0, 2.0, 2.0, 2.0, 2.0, 2.0);
  }

  @Test
  void prometheus3SubqueryLeavesOutTheStepAtItsStart() {
    Exprs.Store store = new Exprs.Store().series(METRIC, 10_000, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
    Expr sub = new Expr.Subquery(sel("metric"), 40_000, 20_000, 0, null);

    Value.Matrix m = (Value.Matrix) engine(store, Compat.PROMETHEUS_3).instant(sub, 60_000);

    assertThat(m.series().get(0).timestampsMs()).containsExactly(40_000L, 60_000L);
  }
}
