package dev.firedrill.promql.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.promql.ast.AggregateOp;
import dev.firedrill.promql.ast.BinaryOp;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.ast.Expr.Aggregate;
import dev.firedrill.promql.ast.Expr.At;
import dev.firedrill.promql.ast.Expr.Binary;
import dev.firedrill.promql.ast.Expr.Call;
import dev.firedrill.promql.ast.Expr.MatrixSelector;
import dev.firedrill.promql.ast.Expr.NumberLiteral;
import dev.firedrill.promql.ast.Expr.Paren;
import dev.firedrill.promql.ast.Expr.StringLiteral;
import dev.firedrill.promql.ast.Expr.Subquery;
import dev.firedrill.promql.ast.Expr.Unary;
import dev.firedrill.promql.ast.Expr.VectorMatching;
import dev.firedrill.promql.ast.Expr.VectorMatching.Cardinality;
import dev.firedrill.promql.ast.Expr.VectorSelector;
import dev.firedrill.promql.ast.Functions;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelMatcher.Type;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The trees Prometheus v2.42's parser builds, node for node. */
class PromqlParserTest {

  private static final long SECOND = 1000;
  private static final long MINUTE = 60 * SECOND;
  private static final long HOUR = 60 * MINUTE;
  private static final long DAY = 24 * HOUR;

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "1           | 1",
        "0x1F        | 31",
        "0X1f        | 31",
        "1e3         | 1000",
        "1E-3        | 0.001",
        ".5          | 0.5",
        "5.          | 5",
        "010         | 8",
        "08          | 8",
        "Inf         | Infinity",
        "iNF         | Infinity",
        "-Inf        | -Infinity",
        "+1          | 1",
        "- -2        | 2"
      })
  void numbersAreReadAsGoReadsThem(String query, double value) {
    assertThat(PromqlParser.parse(query)).isEqualTo(new NumberLiteral(value));
  }

  @Test
  void nanInAnyCaseIsNaN() {
    assertThat(((NumberLiteral) PromqlParser.parse("nAn")).value()).isNaN();
  }

  @Test
  void stringsTakeGoEscapes() {
    assertThat(PromqlParser.parse("'a\\n\\'b\"'")).isEqualTo(new StringLiteral("a\n'b\""));
    assertThat(PromqlParser.parse("\"\\u00e9\\x41\\101\\U0001F600\\t\\\\\""))
        .isEqualTo(new StringLiteral("éAA😀\t\\"));
    assertThat(PromqlParser.parse("\"\\xc3\\xa9\"")).isEqualTo(new StringLiteral("é"));
  }

  @Test
  void rawStringsKeepBackslashes() {
    assertThat(PromqlParser.parse("`a\\n\"b`")).isEqualTo(new StringLiteral("a\\n\"b"));
  }

  @Test
  void aSelectorTakesTheFourMatchersAndItsNameLast() {
    assertThat(
            PromqlParser.parse(
                "http_requests_total{code=\"500\", method!='GET', path=~`/api/.*`, host!~\"a|b\",}"))
        .isEqualTo(
            selector(
                "http_requests_total",
                LabelMatcher.of(Type.EQUAL, "code", "500"),
                LabelMatcher.of(Type.NOT_EQUAL, "method", "GET"),
                LabelMatcher.of(Type.REGEX, "path", "/api/.*"),
                LabelMatcher.of(Type.NOT_REGEX, "host", "a|b")));
  }

  @Test
  void aSelectorMayBeOnlyMatchers() {
    assertThat(PromqlParser.parse("{__name__=~\"job:.*\"}"))
        .isEqualTo(
            new VectorSelector(
                null, List.of(LabelMatcher.of(Type.REGEX, "__name__", "job:.*")), 0, null));
  }

  @Test
  void metricNamesMayHaveColons() {
    assertThat(PromqlParser.parse("service:http_errors:rate5m"))
        .isEqualTo(selector("service:http_errors:rate5m"));
  }

  @ParameterizedTest
  @CsvSource({"sum", "offset", "by", "without", "and", "start", "END"})
  void keywordsNameMetricsWhereAnExpressionStarts(String keyword) {
    assertThat(PromqlParser.parse(keyword)).isEqualTo(selector(keyword));
  }

  @Test
  void keywordsAreLabelNamesInsideBraces() {
    assertThat(PromqlParser.parse("foo{on=\"a\", by=\"b\"}"))
        .isEqualTo(
            selector(
                "foo",
                LabelMatcher.of(Type.EQUAL, "on", "a"),
                LabelMatcher.of(Type.EQUAL, "by", "b")));
  }

  @Test
  void aRangeSelectorTakesCompoundDurations() {
    assertThat(PromqlParser.parse("foo[1h30m]"))
        .isEqualTo(new MatrixSelector(selector("foo"), HOUR + 30 * MINUTE));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "foo[5ms], 5",
    "foo[5s], 5000",
    "foo[5m], 300000",
    "foo[5h], 18000000",
    "foo[5d], 432000000",
    "foo[1w], 604800000",
    "foo[1y], 31536000000",
    "foo[1y2w3d4h5m6s7ms], 33019506007"
  })
  void durationUnits(String query, long rangeMs) {
    assertThat(((MatrixSelector) PromqlParser.parse(query)).rangeMs()).isEqualTo(rangeMs);
  }

  @Test
  void offsetsMayBeNegativeAndLiveOnTheSelector() {
    assertThat(PromqlParser.parse("foo offset -5m"))
        .isEqualTo(new VectorSelector("foo", matchers("foo"), -5 * MINUTE, null));
    assertThat(PromqlParser.parse("foo[5m] offset 1d"))
        .isEqualTo(
            new MatrixSelector(new VectorSelector("foo", matchers("foo"), DAY, null), 5 * MINUTE));
  }

  @Test
  void atTakesSecondsOrStartOrEnd() {
    assertThat(PromqlParser.parse("foo @ 1609746000.5"))
        .isEqualTo(
            new VectorSelector(
                "foo", matchers("foo"), 0, new At(At.Kind.TIMESTAMP, 1609746000500L)));
    assertThat(PromqlParser.parse("foo @ -10"))
        .isEqualTo(
            new VectorSelector("foo", matchers("foo"), 0, new At(At.Kind.TIMESTAMP, -10_000)));
    assertThat(PromqlParser.parse("foo[1m] @ start() offset 1m"))
        .isEqualTo(
            new MatrixSelector(
                new VectorSelector("foo", matchers("foo"), MINUTE, new At(At.Kind.START, 0)),
                MINUTE));
    assertThat(PromqlParser.parse("foo @ end()"))
        .isEqualTo(new VectorSelector("foo", matchers("foo"), 0, new At(At.Kind.END, 0)));
  }

  @Test
  void subqueriesWithAndWithoutStep() {
    Expr rate = call("rate", new MatrixSelector(selector("foo"), 5 * MINUTE));
    assertThat(PromqlParser.parse("rate(foo[5m])[30m:1m] offset 1h @ 100"))
        .isEqualTo(
            new Subquery(rate, 30 * MINUTE, MINUTE, HOUR, new At(At.Kind.TIMESTAMP, 100_000)));
    assertThat(PromqlParser.parse("foo[5m:]"))
        .isEqualTo(new Subquery(selector("foo"), 5 * MINUTE, 0, 0, null));
  }

  @Test
  void aSignBindsLooserThanPower() {
    assertThat(PromqlParser.parse("-1^2"))
        .isEqualTo(new Unary(true, scalarOp(BinaryOp.POW, number(1), number(2))));
  }

  @Test
  void powerIsRightAssociative() {
    assertThat(PromqlParser.parse("2^3^2"))
        .isEqualTo(scalarOp(BinaryOp.POW, number(2), scalarOp(BinaryOp.POW, number(3), number(2))));
  }

  @Test
  void otherOperatorsAreLeftAssociativeByPrecedence() {
    assertThat(PromqlParser.parse("1 - 2 - 3 * 4 % 5"))
        .isEqualTo(
            scalarOp(
                BinaryOp.SUB,
                scalarOp(BinaryOp.SUB, number(1), number(2)),
                scalarOp(BinaryOp.MOD, scalarOp(BinaryOp.MUL, number(3), number(4)), number(5))));
  }

  @Test
  void parenthesesStayInTheTree() {
    assertThat(PromqlParser.parse("(1 + 2) * 3"))
        .isEqualTo(
            scalarOp(
                BinaryOp.MUL, new Paren(scalarOp(BinaryOp.ADD, number(1), number(2))), number(3)));
  }

  @Test
  void aSignBeforeAnythingButANumberIsAUnaryNode() {
    assertThat(PromqlParser.parse("-foo offset 5m"))
        .isEqualTo(new Unary(true, new VectorSelector("foo", matchers("foo"), 5 * MINUTE, null)));
    assertThat(PromqlParser.parse("+(1)")).isEqualTo(new Unary(false, new Paren(number(1))));
  }

  @Test
  void comparisonsTakeBool() {
    assertThat(PromqlParser.parse("1 > bool 2"))
        .isEqualTo(new Binary(BinaryOp.GTR, number(1), number(2), true, null));
  }

  @Test
  void vectorMatchingWithOnAndGroupLeft() {
    assertThat(PromqlParser.parse("a * on(job, instance) group_left(version) b"))
        .isEqualTo(
            new Binary(
                BinaryOp.MUL,
                selector("a"),
                selector("b"),
                false,
                new VectorMatching(
                    Cardinality.MANY_TO_ONE,
                    List.of("job", "instance"),
                    true,
                    List.of("version"))));
  }

  @Test
  void vectorMatchingWithIgnoringAndGroupRightWithoutLabels() {
    assertThat(PromqlParser.parse("a == bool ignoring(code) group_right b"))
        .isEqualTo(
            new Binary(
                BinaryOp.EQL,
                selector("a"),
                selector("b"),
                true,
                new VectorMatching(Cardinality.ONE_TO_MANY, List.of("code"), false, List.of())));
  }

  @Test
  void setOperatorsMatchManyToMany() {
    assertThat(PromqlParser.parse("a and on() b"))
        .isEqualTo(
            new Binary(
                BinaryOp.AND,
                selector("a"),
                selector("b"),
                false,
                new VectorMatching(Cardinality.MANY_TO_MANY, List.of(), true, List.of())));
  }

  @Test
  void matchingIsNullUnlessBothSidesAreVectors() {
    assertThat(PromqlParser.parse("a / 2"))
        .isEqualTo(new Binary(BinaryOp.DIV, selector("a"), number(2), false, null));
  }

  @Test
  void atan2IsABinaryOperator() {
    assertThat(PromqlParser.parse("a atan2 b"))
        .isEqualTo(
            new Binary(
                BinaryOp.ATAN2,
                selector("a"),
                selector("b"),
                false,
                new VectorMatching(Cardinality.ONE_TO_ONE, List.of(), false, List.of())));
  }

  @Test
  void groupingMayComeBeforeOrAfterTheArguments() {
    Aggregate expected =
        new Aggregate(AggregateOp.SUM, selector("x"), null, List.of("job", "on"), false);

    assertThat(PromqlParser.parse("sum by (job, on) (x)")).isEqualTo(expected);
    assertThat(PromqlParser.parse("SUM(x) BY (job, on,)")).isEqualTo(expected);
  }

  @Test
  void aggregationsWithAParameter() {
    assertThat(PromqlParser.parse("topk without (instance) (3, x)"))
        .isEqualTo(
            new Aggregate(AggregateOp.TOPK, selector("x"), number(3), List.of("instance"), true));
    assertThat(PromqlParser.parse("count_values(\"v\", x)"))
        .isEqualTo(
            new Aggregate(
                AggregateOp.COUNT_VALUES, selector("x"), new StringLiteral("v"), List.of(), false));
  }

  @Test
  void functionCallsCarryTheirSignature() {
    assertThat(PromqlParser.parse("label_join(up, \"dst\", \",\", \"a\", \"b\")"))
        .isEqualTo(
            call(
                "label_join",
                selector("up"),
                new StringLiteral("dst"),
                new StringLiteral(","),
                new StringLiteral("a"),
                new StringLiteral("b")));
    assertThat(PromqlParser.parse("histogram_quantile(0.9, sum by (le) (rate(h_bucket[5m])))"))
        .isEqualTo(
            call(
                "histogram_quantile",
                number(0.9),
                new Aggregate(
                    AggregateOp.SUM,
                    call("rate", new MatrixSelector(selector("h_bucket"), 5 * MINUTE)),
                    null,
                    List.of("le"),
                    false)));
  }

  @Test
  void nestingDeeperThanTheCallersStackParses() {
    Expr expr = PromqlParser.parse("1" + "^1".repeat(10_000));

    int depth = 0;
    while (expr instanceof Binary b) {
      assertThat(b.lhs()).isEqualTo(number(1));
      expr = b.rhs();
      depth++;
    }
    assertThat(depth).isEqualTo(10_000);
  }

  @Test
  void commentsAreSkipped() {
    assertThat(PromqlParser.parse("# errors\nfoo # per second\n / 2 # done"))
        .isEqualTo(new Binary(BinaryOp.DIV, selector("foo"), number(2), false, null));
  }

  @Test
  void aLetterInsideBracketsIsTheSubqueryColon() {
    // A quirk of Prometheus's lexer, kept so the same text means the same query.
    assertThat(PromqlParser.parse("foo[5m x]"))
        .isEqualTo(new Subquery(selector("foo"), 5 * MINUTE, 0, 0, null));
  }

  private static NumberLiteral number(double value) {
    return new NumberLiteral(value);
  }

  private static Binary scalarOp(BinaryOp op, Expr lhs, Expr rhs) {
    return new Binary(op, lhs, rhs, false, null);
  }

  private static Call call(String name, Expr... args) {
    return new Call(Functions.byName(name).orElseThrow(), List.of(args));
  }

  private static VectorSelector selector(String name, LabelMatcher... matchers) {
    List<LabelMatcher> all = new ArrayList<>(List.of(matchers));
    all.addAll(matchers(name));
    return new VectorSelector(name, all, 0, null);
  }

  private static List<LabelMatcher> matchers(String name) {
    return List.of(LabelMatcher.of(Type.EQUAL, "__name__", name));
  }
}
