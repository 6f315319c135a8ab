package dev.firedrill.promql.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.firedrill.promql.model.PromqlException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Parse and type errors, each worded and placed as Prometheus v2.42.0 reports the same query (the
 * expected texts are what its {@code /api/v1/query} answered, after the {@code invalid parameter
 * "query": } prefix).
 */
class PromqlParserErrorTest {

  @ParameterizedTest(name = "{0}")
  @MethodSource("errors")
  void reportsTheErrorAsPrometheusDoes(String query, String message) {
    PromqlException e =
        catchThrowableOfType(PromqlException.class, () -> PromqlParser.parse(query));

    assertThat(e).as("parsing %s", query).isNotNull();
    assertThat(e.getMessage()).isEqualTo(message);
    assertThat(e.errorType()).isEqualTo(PromqlException.ErrorType.BAD_DATA);
  }

  @Test
  void aNumberBeyondFloat64IsOutOfRange() {
    String nines = "9".repeat(400);

    PromqlException e =
        catchThrowableOfType(PromqlException.class, () -> PromqlParser.parse(nines));

    assertThat(e.getMessage())
        .isEqualTo(
            "1:1: parse error: error parsing number: strconv.ParseFloat: parsing \""
                + nines
                + "\": value out of range");
  }

  @Test
  void deepNestingIsReportedLikeAnyOtherError() {
    String query = "(" + "-{}-1".repeat(10_000) + ")" + "[1m:]".repeat(1_000);

    PromqlException e =
        catchThrowableOfType(PromqlException.class, () -> PromqlParser.parse(query));

    assertThat(e.getMessage())
        .isEqualTo("1:3: parse error: vector selector must contain at least one non-empty matcher");
  }

  @Test
  void columnsCountUtf8Bytes() {
    PromqlException e =
        catchThrowableOfType(PromqlException.class, () -> PromqlParser.parse("\"é\" + é"));

    assertThat(e.getMessage()).isEqualTo("1:8: parse error: unexpected character: 'é'");
  }

  @Test
  void linesRestartTheColumn() {
    PromqlException e =
        catchThrowableOfType(PromqlException.class, () -> PromqlParser.parse("foo{a=\"é\"}\n + é"));

    assertThat(e.getMessage()).isEqualTo("2:4: parse error: unexpected character: 'é'");
  }

  @Test
  void anInvalidRegexNamesTheMatchersLabel() {
    PromqlException e =
        catchThrowableOfType(PromqlException.class, () -> PromqlParser.parse("foo{a=~\"(\"}"));

    assertThat(e.getMessage()).startsWith("1:5: parse error: invalid regular expression \"(\"");
  }

  static Stream<Arguments> errors() {
    return Stream.of(
        arguments("sum(rate(x[5m])))", "1:18: parse error: unexpected right parenthesis ')'"),
        arguments(
            "{}", "1:1: parse error: vector selector must contain at least one non-empty matcher"),
        arguments(
            "{a=\"\"}",
            "1:1: parse error: vector selector must contain at least one non-empty matcher"),
        arguments(
            "{x=~\".*\"}",
            "1:1: parse error: vector selector must contain at least one non-empty matcher"),
        arguments("1 == 1", "1:3: parse error: comparisons between scalars must use BOOL modifier"),
        arguments(
            "1 and 1",
            "1:1: parse error: set operator \"and\" not allowed in binary scalar expression"),
        arguments(
            "foo and 1",
            "1:1: parse error: set operator \"and\" not allowed in binary scalar expression"),
        arguments(
            "1 or on(a) foo",
            "1:1: parse error: vector matching only allowed between instant vectors"),
        arguments(
            "foo + bool bar",
            "1:5: parse error: bool modifier can only be used on comparison operators"),
        arguments(
            "rate(some_metric)",
            "1:6: parse error: expected type range vector in call to function \"rate\", got instant vector"),
        arguments(
            "floor(1)",
            "1:7: parse error: expected type instant vector in call to function \"floor\", got scalar"),
        arguments(
            "floor()", "1:1: parse error: expected 1 argument(s) in call to \"floor\", got 0"),
        arguments(
            "hour(a, b, c)",
            "1:1: parse error: expected at most 1 argument(s) in call to \"hour\", got 3"),
        arguments("time(a)", "1:1: parse error: expected 0 argument(s) in call to \"time\", got 1"),
        arguments(
            "label_join(a)",
            "1:1: parse error: expected at least 3 argument(s) in call to \"label_join\", got 1"),
        arguments("foo[5m][5m]", "1:8: parse error: ranges only allowed for vector selectors"),
        arguments("(foo + bar)[5m]", "1:12: parse error: ranges only allowed for vector selectors"),
        arguments(
            "foo offset 5m[5m]", "1:14: parse error: no offset modifiers allowed before range"),
        arguments("foo @ 100 [5m]", "1:11: parse error: no @ modifiers allowed before range"),
        arguments(
            "foo offset 1s offset 2s", "1:1: parse error: offset may not be set multiple times"),
        arguments("foo @ 1 @ 2", "1:1: parse error: @ <timestamp> may not be set multiple times"),
        arguments(
            "1 offset 1d",
            "1:1: parse error: offset modifier must be preceded by an instant vector selector or range vector selector or a subquery"),
        arguments(
            "sum(x) @ 100",
            "1:1: parse error: @ modifier must be preceded by an instant vector selector or range vector selector or a subquery"),
        arguments("foo @ +Inf", "1:1: parse error: timestamp out of bounds for @ modifier: +Inf"),
        arguments(
            "http_requests{group=\"production\"} + on(instance) group_left(job,instance) cpu_count{type=\"smp\"}",
            "1:35: parse error: label \"instance\" must not occur in ON and GROUP clause at once"),
        arguments(
            "foo and on(bar) group_left(baz) bar",
            "1:1: parse error: no grouping allowed for \"and\" operation"),
        arguments(
            "foo unless ignoring(bar) group_right bar",
            "1:1: parse error: no grouping allowed for \"unless\" operation"),
        arguments("foo + group_left(baz) bar", "1:7: parse error: unexpected <group_left>"),
        arguments("1 +", "1:4: parse error: unexpected end of input"),
        arguments("unknown_fn(foo)", "1:1: parse error: unknown function with name \"unknown_fn\""),
        arguments(
            "topk(x)",
            "1:1: parse error: wrong number of arguments for aggregate expression provided, expected 2, got 1"),
        arguments(
            "topk(x, y)",
            "1:6: parse error: expected type scalar in aggregation parameter, got instant vector"),
        arguments(
            "count_values(5, x)",
            "1:14: parse error: expected type string in aggregation parameter, got scalar"),
        arguments("sum()", "1:1: parse error: no arguments for aggregate expression provided"),
        arguments("sum(x) by (a) by (b)", "1:15: parse error: unexpected <by>"),
        arguments(
            "sum(x) by test",
            "1:11: parse error: unexpected identifier \"test\" in grouping opts, expected \"(\""),
        arguments(
            "sum by (foo,,) (x)",
            "1:13: parse error: unexpected \",\" in grouping opts, expected label"),
        arguments(
            "sum by (a:b) (x)",
            "1:9: parse error: unexpected metric identifier \"a:b\" in grouping opts, expected label"),
        arguments(
            "-\"string\"",
            "1:1: parse error: unary expression only allowed on expressions of type scalar or instant vector, got \"string\""),
        arguments(
            "-foo[5m]",
            "1:1: parse error: unary expression only allowed on expressions of type scalar or instant vector, got \"range vector\""),
        arguments(
            "foo[5m] + 1",
            "1:1: parse error: binary expression must contain only scalar and instant vector types"),
        arguments(
            "\"a\" * 2",
            "1:1: parse error: binary expression must contain only scalar and instant vector types"),
        arguments(
            "rate(x[5m])[1h] offset 1h",
            "1:12: parse error: ranges only allowed for vector selectors"),
        arguments(
            "foo[5m:1m][10m:5s]",
            "1:1: parse error: subquery is only allowed on instant vector, got matrix instead"),
        arguments(
            "foo{a=b}",
            "1:7: parse error: unexpected identifier \"b\" in label matching, expected string"),
        arguments(
            "foo{a}",
            "1:6: parse error: unexpected \"}\" in label matching, expected label matching operator"),
        arguments(
            "foo{a=\"b\" c=\"d\"}",
            "1:11: parse error: unexpected identifier \"c\" in label matching, expected \",\" or \"}\""),
        arguments(
            "foo{,}",
            "1:5: parse error: unexpected \",\" in label matching, expected identifier or \"}\""),
        arguments(
            "foo{__name__=\"bar\"}",
            "1:1: parse error: metric name must not be set twice: \"foo\" or \"bar\""),
        arguments("foo{a*\"b\"}", "1:6: parse error: unexpected character inside braces: '*'"),
        arguments("foo{", "1:5: parse error: unexpected end of input inside braces"),
        arguments("}", "1:1: parse error: unexpected character: '}'"),
        arguments("foo[5mm]", "1:5: parse error: bad duration syntax: \"5mm\""),
        arguments("foo[5m1]", "1:5: parse error: bad duration syntax: \"5m1\""),
        arguments("foo[5m:1m1]", "1:8: parse error: bad number or duration syntax: \"1m1\""),
        arguments("foo[5m1h]", "1:5: parse error: not a valid duration string: \"5m1h\""),
        arguments("foo[0m]", "1:5: parse error: duration must be greater than 0"),
        arguments("foo[1]", "1:5: parse error: missing unit character in duration"),
        arguments(
            "foo offset 1",
            "1:12: parse error: unexpected number \"1\" in offset, expected duration"),
        arguments(
            "foo offset",
            "1:11: parse error: unexpected end of input in offset, expected duration"),
        arguments(
            "foo @ 1m", "1:7: parse error: unexpected duration \"1m\" in @, expected timestamp"),
        arguments("foo @", "1:6: parse error: unexpected end of input in @, expected timestamp"),
        arguments("\"\\c\"", "1:1: parse error: unknown escape sequence U+0063 'c'"),
        arguments("\"\\x.\"", "1:1: parse error: illegal character U+002E '.' in escape sequence"),
        arguments("\"unterminated", "1:1: parse error: unterminated quoted string"),
        arguments("`unterminated", "1:1: parse error: unterminated raw string"),
        arguments("1 !~ 1", "1:3: parse error: unexpected character after '!': '~'"),
        arguments("1 =~ 1", "1:3: parse error: unexpected character after '=': '~'"),
        arguments(".", "1:1: parse error: unexpected character: '.'"),
        arguments("100..4", "1:5: parse error: unexpected number \".4\""),
        arguments("0deadbeef", "1:1: parse error: bad number or duration syntax: \"0de\""),
        arguments("(", "1:2: parse error: unclosed left parenthesis"),
        arguments("((1)", "1:5: parse error: unclosed left parenthesis"),
        arguments("*1", "1:1: parse error: unexpected <op:*>"),
        arguments("start()", "1:6: parse error: unexpected \"(\""),
        arguments("foo(a,)", "1:6: parse error: trailing commas not allowed in function call args"),
        arguments(
            "rate(a,,)", "1:7: parse error: trailing commas not allowed in function call args"),
        arguments("a - on(b) ignoring(c) d", "1:11: parse error: unexpected <ignoring>"),
        arguments(
            "sum(a - on(b) ignoring(c) d)",
            "1:15: parse error: unexpected <ignoring> in aggregation"),
        arguments("sum(foo + )", "1:11: parse error: unexpected \")\" in aggregation"),
        arguments("rate(foo + )", "1:12: parse error: unexpected \")\""),
        arguments("a + on(b) bool c", "1:11: parse error: unexpected <bool>"),
        arguments(
            "foo{a=\"b\"}\n  +\n  on(x) group_left(x) bar",
            "2:3: parse error: label \"x\" must not occur in ON and GROUP clause at once"),
        arguments("# only a comment", "1:1: parse error: no expression found in input"),
        arguments(
            "foo[5m] @ start() [1m]",
            "1:19: parse error: ranges only allowed for vector selectors"),
        arguments(
            "sum by (a) foo", "1:12: parse error: unexpected identifier \"foo\" in aggregation"),
        arguments("foo @ start(", "1:13: parse error: unclosed left parenthesis"),
        arguments(
            "foo @ start x",
            "1:13: parse error: unexpected identifier \"x\" in @, expected timestamp"),
        arguments("foo[5m x y]", "1:10: parse error: unexpected colon 'y'"),
        arguments("foo[[5m]", "1:5: parse error: missing unit character in duration"),
        arguments("foo]", "1:4: parse error: unexpected right bracket ']'"),
        arguments(
            "a == bool on(b) group_left(b) c",
            "1:3: parse error: label \"b\" must not occur in ON and GROUP clause at once"),
        arguments("sum(x) without (a) (y)", "1:20: parse error: unexpected \"(\""),
        arguments("group_left", "1:1: parse error: unexpected <group_left>"),
        arguments(
            "max(1)",
            "1:5: parse error: expected type instant vector in aggregation expression, got scalar"),
        arguments(
            "quantile(\"a\", x)",
            "1:10: parse error: expected type scalar in aggregation parameter, got string"),
        arguments(
            "abs(x, y)", "1:1: parse error: expected 1 argument(s) in call to \"abs\", got 2"),
        arguments(
            "vector(\"a\")",
            "1:8: parse error: expected type scalar in call to function \"vector\", got string"),
        arguments(
            "scalar(foo[5m])",
            "1:8: parse error: expected type instant vector in call to function \"scalar\", got range vector"),
        arguments(
            "label_replace(a, \"b\", \"c\", \"d\")",
            "1:1: parse error: expected 5 argument(s) in call to \"label_replace\", got 4"),
        arguments("sort()", "1:1: parse error: expected 1 argument(s) in call to \"sort\", got 0"),
        arguments(
            "round(x, y)",
            "1:10: parse error: expected type scalar in call to function \"round\", got instant vector"),
        arguments(
            "predict_linear(x[5m], foo)",
            "1:23: parse error: expected type scalar in call to function \"predict_linear\", got instant vector"));
  }
}
