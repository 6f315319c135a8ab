package dev.firedrill.promql.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.promql.ast.BinaryOp;
import dev.firedrill.promql.ast.DurationExpr;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.ast.Expr.Aggregate;
import dev.firedrill.promql.ast.Expr.Binary;
import dev.firedrill.promql.ast.Expr.Call;
import dev.firedrill.promql.ast.Expr.MatrixSelector;
import dev.firedrill.promql.ast.Expr.RangeMode;
import dev.firedrill.promql.ast.Expr.Subquery;
import dev.firedrill.promql.ast.Expr.VectorSelector;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.promql.parse.PromqlParser.Syntax;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Prometheus 3's additions, read by the PROMETHEUS_3 syntax and refused, as by v2.42, by the
 * default one.
 */
class Prometheus3SyntaxTest {

  private static Expr parse3(String query) {
    return PromqlParser.parse(query, Syntax.PROMETHEUS_3);
  }

  private static MatrixSelector rangeOf(String query) {
    return (MatrixSelector) ((Call) parse3(query)).args().get(0);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "rate(x[5m])                  | 300000 | 5m",
        "rate(x[300])                 | 300000 | 300",
        "rate(x[1.5])                 | 1500   | 1.5",
        "rate(x[5m * 2])              | 600000 | 5m * 2",
        "rate(x[(1h + 5m) / 5])       | 780000 | (1h + 5m) / 5",
        "rate(x[2 ^ 3 * 10s])         | 80000  | 2 ^ 3 * 10s",
        "rate(x[1h - 2 * 10m])        | 2400000 | 1h - 2 * 10m",
        "rate(x[min(5m, 10m)])        | 300000 | min(5m, 10m)",
        "rate(x[max(5m, 2 * 6m)])     | 720000 | max(5m, 2 * 6m)",
        "rate(x[-5m + 10m])           | 300000 | -5m + 10m"
      })
  void rangesAreDurationExpressions(String query, long rangeMs, String text) {
    MatrixSelector m = rangeOf(query);
    assertThat(m.rangeMs()).isEqualTo(rangeMs);
    assertThat(m.rangeExpr().text()).isEqualTo(text);
  }

  @Test
  void stepAndRangeAreLeftToTheQuery() {
    MatrixSelector m = rangeOf("rate(x[step() * 4])");
    assertThat(m.rangeMs()).isZero();
    assertThat(m.rangeExpr().dependsOnQuery()).isTrue();
    assertThat(m.rangeExpr().seconds(15, 0)).isEqualTo(60);
    assertThat(rangeOf("rate(x[range()])").rangeExpr())
        .isEqualTo(new DurationExpr.QueryParameter(true));
  }

  @Test
  void subqueriesAndOffsetsTakeDurationExpressions() {
    Subquery s =
        (Subquery)
            ((Call) parse3("max_over_time(rate(x[5m])[1h * 2:30 * 2] offset (1h + 5m))"))
                .args()
                .get(0);
    assertThat(s.rangeMs()).isEqualTo(7_200_000);
    assertThat(s.stepMs()).isEqualTo(60_000);
    assertThat(s.offsetMs()).isEqualTo(3_900_000);
    assertThat(s.offsetExpr().text()).isEqualTo("(1h + 5m)");
    VectorSelector v = (VectorSelector) parse3("x offset 300");
    assertThat(v.offsetMs()).isEqualTo(300_000);
    VectorSelector negative = (VectorSelector) parse3("x offset -5m");
    assertThat(negative.offsetMs()).isEqualTo(-300_000);
    // offset binds its duration only: the + is the expression's
    Binary sum = (Binary) parse3("x offset 5m + 1");
    assertThat(((VectorSelector) sum.lhs()).offsetMs()).isEqualTo(300_000);
  }

  @Test
  void anchoredAndSmoothedModifySelectorsAndStayMetricNamesElsewhere() {
    assertThat(rangeOf("increase(x[5m] anchored)").selector().rangeMode())
        .isEqualTo(RangeMode.ANCHORED);
    assertThat(rangeOf("rate(x[5m] smoothed)").selector().rangeMode())
        .isEqualTo(RangeMode.SMOOTHED);
    assertThat(((VectorSelector) parse3("x smoothed")).rangeMode()).isEqualTo(RangeMode.SMOOTHED);
    assertThat(((VectorSelector) parse3("anchored")).name()).isEqualTo("anchored");
    assertThatThrownBy(() -> parse3("x[5m] anchored smoothed"))
        .hasMessage("1:1: parse error: anchored and smoothed modifiers cannot be used together");
    assertThatThrownBy(() -> parse3("rate(x[5m])[1h:] anchored"))
        .hasMessage("1:1: parse error: anchored modifier is not supported for subqueries");
  }

  @Test
  void fillModifiersGiveTheMissingSideAValue() {
    Binary both = (Binary) parse3("a + fill(0) b");
    assertThat(both.matching().fillLeft()).isEqualTo(0.0);
    assertThat(both.matching().fillRight()).isEqualTo(0.0);
    Binary sides = (Binary) parse3("a / on(job) group_left fill_left(1) fill_right(-2) b");
    assertThat(sides.matching().fillLeft()).isEqualTo(1.0);
    assertThat(sides.matching().fillRight()).isEqualTo(-2.0);
    assertThat(sides.matching().labels()).containsExactly("job");
    assertThat(((Binary) parse3("fill + fill")).rhs()).isInstanceOf(VectorSelector.class);
    assertThatThrownBy(() -> parse3("a and fill(0) b"))
        .hasMessage("1:1: parse error: filling in missing series not allowed for set operators");
  }

  @Test
  void quotedUtf8NamesAreMetricAndLabelNames() {
    VectorSelector v = (VectorSelector) parse3("{\"my.metric\", \"label.name\"=\"x\"}");
    assertThat(v.name()).isEqualTo("my.metric");
    assertThat(v.matchers())
        .containsExactly(
            LabelMatcher.of(LabelMatcher.Type.EQUAL, "label.name", "x"),
            LabelMatcher.of(LabelMatcher.Type.EQUAL, "__name__", "my.metric"));
    Aggregate sum = (Aggregate) parse3("sum by (\"service.name\") ({\"http.requests\"})");
    assertThat(sum.grouping()).containsExactly("service.name");
    assertThatThrownBy(() -> parse3("x{\"y\"}"))
        .hasMessageContaining("metric name must not be set twice");
  }

  @Test
  void durationsAreNumbersAndThreeXFunctionsAreKnown() {
    Binary b = (Binary) parse3("time() - 5m");
    assertThat(b.op()).isEqualTo(BinaryOp.SUB);
    assertThat(((Expr.NumberLiteral) b.rhs()).value()).isEqualTo(300.0);
    assertThat(((Call) parse3("double_exponential_smoothing(x[10m], 0.5, 0.5)")).function().name())
        .isEqualTo("double_exponential_smoothing");
    assertThat(((Call) parse3("holt_winters(x[10m], 0.5, 0.5)")).function().name())
        .isEqualTo("holt_winters");
    assertThat(((Call) parse3("sort_by_label(x, \"a\", \"b\")")).args()).hasSize(3);
  }

  @Test
  void badDurationExpressionsAreRefused() {
    assertThatThrownBy(() -> parse3("x[5m - 5m]"))
        .isInstanceOf(PromqlException.class)
        .hasMessage("1:3: parse error: duration must be greater than 0");
    assertThatThrownBy(() -> parse3("x[5m / 0]")).hasMessage("1:6: parse error: division by zero");
    assertThatThrownBy(() -> parse3("x[foo]"))
        .hasMessageContaining("unexpected identifier \"foo\" in duration expression");
  }

  @Test
  void limitAggregationsDurationArgumentsAndZeroTerms() {
    Aggregate limit = (Aggregate) parse3("limitk by (group) (2, http_requests)");
    assertThat(limit.op()).isEqualTo(dev.firedrill.promql.ast.AggregateOp.LIMITK);
    assertThat(limit.grouping()).containsExactly("group");
    assertThat(((Aggregate) parse3("limit_ratio(0.5, x)")).op())
        .isEqualTo(dev.firedrill.promql.ast.AggregateOp.LIMIT_RATIO);
    assertThat(
            ((Expr.NumberLiteral) ((Call) parse3("predict_linear(x[1h], 1h)")).args().get(1))
                .value())
        .isEqualTo(3600.0);
    assertThat(((VectorSelector) parse3("x @ 100s")).at().timestampMs()).isEqualTo(100_000);
    assertThat(rangeOf("changes(x[30m+0s])").rangeMs()).isEqualTo(1_800_000);
    assertThat(rangeOf("rate(x[max_of(5m, 1m)])").rangeMs()).isEqualTo(300_000);
    assertThatThrownBy(() -> PromqlParser.parse("limitk(2, x)"))
        .hasMessage("1:1: parse error: unknown function with name \"limitk\"");
  }

  @Test
  void infosSecondArgumentIsLabelMatchersThatMayAllMatchTheEmptyString() {
    Call info = (Call) parse3("info(x, {data=~\".*\", __name__=~\".+_info\"})");
    assertThat(((VectorSelector) info.args().get(1)).matchers()).hasSize(2);
    assertThat(((Call) parse3("info(x, {})")).args()).hasSize(2);
    assertThat(((Call) parse3("info(x)")).args()).hasSize(1);
    // Elsewhere a selector still needs a matcher that does not match the empty string.
    assertThatThrownBy(() -> parse3("x + {data=~\".*\"}"))
        .hasMessage(
            "1:5: parse error: vector selector must contain at least one non-empty matcher");
    assertThatThrownBy(() -> parse3("info(x, y)"))
        .hasMessage("1:9: parse error: expected label selectors only, got vector selector instead");
    assertThatThrownBy(() -> parse3("info(x, y{a=\"b\"})"))
        .hasMessage("1:9: parse error: expected label selectors only, got vector selector instead");
    assertThatThrownBy(() -> parse3("info(x, ({a=\"b\"}))"))
        .hasMessage("1:9: parse error: expected label selectors only");
    assertThatThrownBy(() -> parse3("info(x, 1)"))
        .hasMessage(
            "1:1: parse error: expected type instant vector in call to function \"info\", got scalar");
    assertThatThrownBy(() -> PromqlParser.parse("info(x)"))
        .hasMessage("1:1: parse error: unknown function with name \"info\"");
  }

  @Test
  void theV242SyntaxStillRefusesThem() {
    for (String query :
        List.of(
            "x[300]",
            "x[5m * 2]",
            "{\"my.metric\"}",
            "x offset (1h + 5m)",
            "x[5m] anchored",
            "a + fill(0) b",
            "double_exponential_smoothing(x[10m], 0.5, 0.5)",
            "time() - 5m")) {
      assertThatThrownBy(() -> PromqlParser.parse(query))
          .as(query)
          .isInstanceOf(PromqlException.class);
    }
  }

  @Test
  void aRegexDotMatchesANewlineInPrometheus3AndNotInPrometheus2() {
    String query = "m{msg=~\"line.two\", other!~\"a.*\"}";
    List<LabelMatcher> three =
        ((VectorSelector) PromqlParser.parse(query, Syntax.PROMETHEUS_3)).matchers();
    List<LabelMatcher> two =
        ((VectorSelector) PromqlParser.parse(query, Syntax.PROMETHEUS_2_42)).matchers();

    assertThat(three.get(0).matches("line\ntwo")).isTrue();
    assertThat(two.get(0).matches("line\ntwo")).isFalse();
    assertThat(three.get(1).matches("a\nb")).isFalse();
    assertThat(two.get(1).matches("a\nb")).isTrue();
    // A flag inside the expression still turns it off, as in Go.
    LabelMatcher off =
        ((VectorSelector) PromqlParser.parse("m{msg=~\"(?-s)line.two\"}", Syntax.PROMETHEUS_3))
            .matchers()
            .get(0);
    assertThat(off.matches("line\ntwo")).isFalse();
  }
}
