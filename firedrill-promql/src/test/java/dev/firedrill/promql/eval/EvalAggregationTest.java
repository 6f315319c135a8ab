package dev.firedrill.promql.eval;

import static dev.firedrill.promql.eval.Exprs.agg;
import static dev.firedrill.promql.eval.Exprs.aggParam;
import static dev.firedrill.promql.eval.Exprs.aggWithout;
import static dev.firedrill.promql.eval.Exprs.engine;
import static dev.firedrill.promql.eval.Exprs.num;
import static dev.firedrill.promql.eval.Exprs.sel;
import static dev.firedrill.promql.eval.Exprs.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.promql.ast.AggregateOp;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import java.util.List;
import org.junit.jupiter.api.Test;

class EvalAggregationTest {

  private final Exprs.Store store =
      new Exprs.Store()
          .add(LabelSet.of("__name__", "m", "job", "a", "i", "1"), 0, 1)
          .add(LabelSet.of("__name__", "m", "job", "a", "i", "2"), 0, 3)
          .add(LabelSet.of("__name__", "m", "job", "b", "i", "1"), 0, 3)
          .add(LabelSet.of("__name__", "inf", "i", "1"), 0, Double.POSITIVE_INFINITY)
          .add(LabelSet.of("__name__", "inf", "i", "2"), 0, 5);
  private final Engine engine = engine(store);

  private List<Value.Sample> vector(Expr e) {
    return ((Value.Vector) engine.instant(e, 0)).samples();
  }

  @Test
  void sumByKeepsOnlyTheGroupingLabels() {
    assertThat(vector(agg(AggregateOp.SUM, sel("m"), "job")))
        .containsExactly(
            new Value.Sample(LabelSet.of("job", "a"), 0, 4),
            new Value.Sample(LabelSet.of("job", "b"), 0, 3));
  }

  @Test
  void withoutDropsTheNameToo() {
    assertThat(vector(aggWithout(AggregateOp.MAX, sel("m"), "job")))
        .containsExactly(
            new Value.Sample(LabelSet.of("i", "1"), 0, 3),
            new Value.Sample(LabelSet.of("i", "2"), 0, 3));
  }

  @Test
  void avgKeepsAnInfiniteMean() {
    assertThat(vector(agg(AggregateOp.AVG, sel("inf"))))
        .containsExactly(new Value.Sample(LabelSet.EMPTY, 0, Double.POSITIVE_INFINITY));
  }

  @Test
  void stddevIsThePopulationDeviation() {
    assertThat(vector(agg(AggregateOp.STDDEV, sel("m"))).get(0).value())
        .isCloseTo(Math.sqrt(8.0 / 9), within());
  }

  @Test
  void topkKeepsLabelsAndGoHeapOrderForTies() {
    assertThat(vector(aggParam(AggregateOp.TOPK, num(2), sel("m"))))
        .extracting(Value.Sample::labels)
        .containsExactly(
            LabelSet.of("__name__", "m", "job", "b", "i", "1"),
            LabelSet.of("__name__", "m", "job", "a", "i", "2"));
  }

  @Test
  void bottomkOrdersAscending() {
    assertThat(vector(aggParam(AggregateOp.BOTTOMK, num(2), sel("m"))))
        .extracting(Value.Sample::value)
        .containsExactly(1.0, 3.0);
  }

  @Test
  void topkRefusesAnUnrepresentableK() {
    assertThatThrownBy(() -> engine.instant(aggParam(AggregateOp.TOPK, num(1e20), sel("m")), 0))
        .isInstanceOf(PromqlException.class)
        .hasMessage("Scalar value 1e+20 overflows int64");
  }

  @Test
  void countValuesCountsByTheValueLabel() {
    assertThat(vector(aggParam(AggregateOp.COUNT_VALUES, str("value"), sel("m"))))
        .containsExactly(
            new Value.Sample(LabelSet.of("value", "1"), 0, 1),
            new Value.Sample(LabelSet.of("value", "3"), 0, 2));
  }

  @Test
  void countValuesRefusesAnInvalidLabelName() {
    assertThatThrownBy(
            () -> engine.instant(aggParam(AggregateOp.COUNT_VALUES, str("a-b"), sel("m")), 0))
        .isInstanceOf(PromqlException.class)
        .hasMessage("invalid label name \"a-b\"");
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(1e-12);
  }
}
