package dev.firedrill.promql.eval;

import static dev.firedrill.promql.eval.Exprs.call;
import static dev.firedrill.promql.eval.Exprs.engine;
import static dev.firedrill.promql.eval.Exprs.num;
import static dev.firedrill.promql.eval.Exprs.range;
import static dev.firedrill.promql.eval.Exprs.sel;
import static dev.firedrill.promql.eval.Exprs.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.ast.ValueType;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import java.util.List;
import org.junit.jupiter.api.Test;

class EvalCallsTest {

  private static final LabelSet M1 = LabelSet.of("__name__", "m", "job", "a");
  private static final LabelSet M2 = LabelSet.of("__name__", "m", "job", "b");

  private final Exprs.Store store =
      new Exprs.Store().series(M1, 60_000, 3.0, 5.0, 7.0).series(M2, 60_000, 9.0, null, 1.0);
  private final Engine engine = engine(store);

  private List<Value.Sample> vector(Expr e, long t) {
    return ((Value.Vector) engine.instant(e, t)).samples();
  }

  @Test
  void absentReportsTheEqualityMatchersLabels() {
    Expr.VectorSelector missing =
        new Expr.VectorSelector(
            "nope",
            List.of(
                LabelMatcher.of(LabelMatcher.Type.EQUAL, "__name__", "nope"),
                LabelMatcher.of(LabelMatcher.Type.EQUAL, "job", "x"),
                LabelMatcher.of(LabelMatcher.Type.REGEX, "instance", ".*")),
            0,
            null);

    assertThat(vector(call("absent", ValueType.VECTOR, missing), 0))
        .containsExactly(new Value.Sample(LabelSet.of("job", "x"), 0, 1));
    assertThat(vector(call("absent", ValueType.VECTOR, sel("m")), 0)).isEmpty();
  }

  @Test
  void absentOverTimeCoversStepsWithoutAnySample() {
    Value.Matrix m =
        engine.range(
            call("absent_over_time", ValueType.VECTOR, range(sel("m", "job", "b"), 30_000)),
            0,
            120_000,
            60_000);

    assertThat(m.series()).hasSize(1);
    assertThat(m.series().get(0).labels()).isEqualTo(LabelSet.of("job", "b"));
    assertThat(m.series().get(0).timestampsMs()).containsExactly(60_000L);
  }

  @Test
  void sortAndSortDescOrderTheInstantVector() {
    assertThat(vector(call("sort", ValueType.VECTOR, sel("m")), 0))
        .extracting(Value.Sample::labels)
        .containsExactly(M1, M2);
    assertThat(vector(call("sort_desc", ValueType.VECTOR, sel("m")), 0))
        .extracting(Value.Sample::labels)
        .containsExactly(M2, M1);
  }

  @Test
  void timestampOfASelectorIsTheSamplesTime() {
    assertThat(vector(call("timestamp", ValueType.VECTOR, sel("m", "job", "b")), 90_000))
        .containsExactly(new Value.Sample(LabelSet.of("job", "b"), 90_000, 0));
  }

  @Test
  void scalarOfMoreThanOneSampleIsNaN() {
    assertThat(
            ((Value.Scalar) engine.instant(call("scalar", ValueType.SCALAR, sel("m")), 0)).value())
        .isNaN();
    assertThat(
            ((Value.Scalar)
                    engine.instant(call("scalar", ValueType.SCALAR, sel("m", "job", "a")), 0))
                .value())
        .isEqualTo(3.0);
  }

  @Test
  void timeAndDateFunctionsDefaultToTheEvaluationTime() {
    assertThat(((Value.Scalar) engine.instant(call("time", ValueType.SCALAR), 90_000)).value())
        .isEqualTo(90.0);
    assertThat(vector(call("minute", ValueType.VECTOR), 180_000))
        .containsExactly(new Value.Sample(LabelSet.EMPTY, 180_000, 3));
  }

  @Test
  void clampWithMaxBelowMinGivesNothing() {
    assertThat(vector(call("clamp", ValueType.VECTOR, sel("m"), num(5), num(1)), 0)).isEmpty();
    assertThat(vector(call("clamp", ValueType.VECTOR, sel("m"), num(4), num(8)), 0))
        .containsExactly(
            new Value.Sample(LabelSet.of("job", "a"), 0, 4),
            new Value.Sample(LabelSet.of("job", "b"), 0, 8));
  }

  @Test
  void rangeFunctionsDropTheNameButLastOverTime() {
    assertThat(
            vector(
                call("sum_over_time", ValueType.VECTOR, range(sel("m", "job", "a"), 60_000)),
                120_000))
        .containsExactly(new Value.Sample(LabelSet.of("job", "a"), 120_000, 12));
    assertThat(
            vector(
                call("last_over_time", ValueType.VECTOR, range(sel("m", "job", "a"), 60_000)),
                120_000))
        .containsExactly(new Value.Sample(M1, 120_000, 7));
  }

  @Test
  void histogramQuantileGroupsBucketsByAllLabelsButLe() {
    store
        .add(LabelSet.of("__name__", "h_bucket", "le", "1"), 0, 5)
        .add(LabelSet.of("__name__", "h_bucket", "le", "2"), 0, 10)
        .add(LabelSet.of("__name__", "h_bucket", "le", "+Inf"), 0, 10);

    assertThat(vector(call("histogram_quantile", ValueType.VECTOR, num(0.75), sel("h_bucket")), 0))
        .containsExactly(new Value.Sample(LabelSet.EMPTY, 0, 1.5));
  }

  @Test
  void labelReplaceChecksItsArgumentsEvenWithoutSamples() {
    Expr e =
        call(
            "label_replace",
            ValueType.VECTOR,
            sel("nope"),
            str("invalid-name"),
            str(""),
            str("src"),
            str("(.*)"));

    assertThatThrownBy(() -> engine.instant(e, 0))
        .isInstanceOf(PromqlException.class)
        .hasMessage("invalid destination label name in label_replace(): invalid-name");
  }

  @Test
  void labelReplaceThatMakesSeriesCollideIsRefused() {
    Expr e =
        call(
            "label_replace",
            ValueType.VECTOR,
            sel("m"),
            str("job"),
            str("same"),
            str("job"),
            str(".*"));

    assertThatThrownBy(() -> engine.instant(e, 0))
        .isInstanceOf(PromqlException.class)
        .hasMessage("vector cannot contain metrics with the same labelset");
  }
}
