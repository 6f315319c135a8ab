package dev.firedrill.promql.eval;

import static dev.firedrill.promql.eval.Exprs.bin;
import static dev.firedrill.promql.eval.Exprs.boolBin;
import static dev.firedrill.promql.eval.Exprs.engine;
import static dev.firedrill.promql.eval.Exprs.matched;
import static dev.firedrill.promql.eval.Exprs.num;
import static dev.firedrill.promql.eval.Exprs.sel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.promql.ast.BinaryOp;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.ast.Expr.VectorMatching.Cardinality;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import java.util.List;
import org.junit.jupiter.api.Test;

class EvalBinaryTest {

  private static final LabelSet A1 = LabelSet.of("__name__", "a", "job", "x", "instance", "1");
  private static final LabelSet A2 = LabelSet.of("__name__", "a", "job", "x", "instance", "2");
  private static final LabelSet B = LabelSet.of("__name__", "b", "job", "x", "team", "t");

  private final Exprs.Store store = new Exprs.Store().add(A1, 0, 10).add(A2, 0, 20).add(B, 0, 2);
  private final Engine engine = engine(store);

  private List<Value.Sample> vector(Expr e) {
    return ((Value.Vector) engine.instant(e, 0)).samples();
  }

  @Test
  void arithmeticWithScalarDropsTheName() {
    assertThat(vector(bin(BinaryOp.MUL, sel("a"), num(2))))
        .containsExactly(
            new Value.Sample(A1.withoutMetricName(), 0, 20),
            new Value.Sample(A2.withoutMetricName(), 0, 40));
  }

  @Test
  void comparisonFiltersAndKeepsTheVectorValueEvenOnTheRight() {
    assertThat(vector(bin(BinaryOp.LSS, num(15), sel("a"))))
        .containsExactly(new Value.Sample(A2, 0, 20));
  }

  @Test
  void boolComparisonGivesZeroOrOneWithoutName() {
    assertThat(vector(boolBin(BinaryOp.GTR, sel("a"), num(15))))
        .containsExactly(
            new Value.Sample(A1.withoutMetricName(), 0, 0),
            new Value.Sample(A2.withoutMetricName(), 0, 1));
  }

  @Test
  void scalarComparisonWithBool() {
    Value.Scalar s = (Value.Scalar) engine.instant(boolBin(BinaryOp.GTE, num(2), num(2)), 0);
    assertThat(s.value()).isEqualTo(1.0);
  }

  @Test
  void manyToOneWithGroupLeftCopiesIncludedLabels() {
    Expr e =
        matched(
            BinaryOp.MUL,
            sel("a"),
            sel("b"),
            Cardinality.MANY_TO_ONE,
            List.of("job"),
            true,
            List.of("team"));

    assertThat(vector(e))
        .containsExactly(
            new Value.Sample(LabelSet.of("job", "x", "instance", "1", "team", "t"), 0, 20),
            new Value.Sample(LabelSet.of("job", "x", "instance", "2", "team", "t"), 0, 40));
  }

  @Test
  void oneToOneMatchOnKeepsOnlyTheMatchingLabels() {
    Expr e =
        matched(
            BinaryOp.ADD,
            sel("b"),
            sel("a", "instance", "1"),
            Cardinality.ONE_TO_ONE,
            List.of("job"),
            true,
            List.of());

    assertThat(vector(e)).containsExactly(new Value.Sample(LabelSet.of("job", "x"), 0, 12));
  }

  @Test
  void manyOnTheOneSideIsRefusedWithPrometheusMessage() {
    Expr e =
        matched(
            BinaryOp.MUL,
            sel("b"),
            sel("a"),
            Cardinality.MANY_TO_ONE,
            List.of("job"),
            true,
            List.of());

    assertThatThrownBy(() -> engine.instant(e, 0))
        .isInstanceOf(PromqlException.class)
        .hasMessage(
            "found duplicate series for the match group {job=\"x\"} on the right hand-side of the operation: "
                + "[{__name__=\"a\", instance=\"2\", job=\"x\"}, {__name__=\"a\", instance=\"1\", job=\"x\"}]"
                + ";many-to-many matching not allowed: matching labels must be unique on one side");
  }

  @Test
  void manyToOneWithoutGroupModifierIsRefused() {
    Expr e =
        matched(
            BinaryOp.MUL,
            sel("a"),
            sel("b"),
            Cardinality.ONE_TO_ONE,
            List.of("job"),
            true,
            List.of());

    assertThatThrownBy(() -> engine.instant(e, 0))
        .isInstanceOf(PromqlException.class)
        .hasMessage(
            "multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)")
        .extracting(x -> ((PromqlException) x).errorType())
        .isEqualTo(PromqlException.ErrorType.EXECUTION);
  }

  @Test
  void setOperatorsMatchOnSignatures() {
    Expr and =
        matched(
            BinaryOp.AND,
            sel("a"),
            sel("b"),
            Cardinality.MANY_TO_MANY,
            List.of("job"),
            true,
            List.of());
    Expr unless =
        matched(
            BinaryOp.UNLESS,
            sel("a"),
            sel("a", "instance", "1"),
            Cardinality.MANY_TO_MANY,
            List.of(),
            false,
            List.of());
    Expr or =
        matched(
            BinaryOp.OR,
            sel("a", "instance", "1"),
            sel("b"),
            Cardinality.MANY_TO_MANY,
            List.of("job"),
            true,
            List.of());

    assertThat(vector(and)).extracting(Value.Sample::labels).containsExactly(A1, A2);
    assertThat(vector(unless)).extracting(Value.Sample::labels).containsExactly(A2);
    assertThat(vector(or)).extracting(Value.Sample::labels).containsExactly(A1);
  }

  @Test
  void resultsThatCollideAreRefused() {
    store.add(LabelSet.of("__name__", "c", "job", "x", "instance", "1"), 0, 1);
    Expr e =
        new Expr.Unary(
            true,
            new Expr.Binary(
                BinaryOp.OR,
                sel("a", "instance", "1"),
                sel("c"),
                false,
                new Expr.VectorMatching(
                    Cardinality.MANY_TO_MANY, List.of("__name__"), true, List.of())));

    assertThatThrownBy(() -> engine.instant(e, 0))
        .isInstanceOf(PromqlException.class)
        .hasMessage("vector cannot contain metrics with the same labelset");
  }
}
