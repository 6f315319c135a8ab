package dev.firedrill.promql.fn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import org.junit.jupiter.api.Test;

class LabelFunctionsTest {

  private static final LabelSet SOURCE =
      LabelSet.of("__name__", "m", "src", "source-value-10", "dst", "original");

  /**
   * dst after label_replace(dst, replacement, "src", regex) on {src=value}, or null when removed.
   */
  private static String replaced(String value, String replacement, String regex) {
    LabelSet out =
        LabelFunctions.replace(LabelSet.of("src", value), "dst", replacement, "src", regex);
    return out.has("dst") ? out.get("dst") : null;
  }

  @Test
  void replaceExpandsAGroupIntoTheDestination() {
    LabelSet out =
        LabelFunctions.replace(SOURCE, "dst", "destination-value-$1", "src", "source-value-(.*)");
    assertThat(out)
        .isEqualTo(
            LabelSet.of("__name__", "m", "src", "source-value-10", "dst", "destination-value-10"));
  }

  @Test
  void replaceLeavesTheLabelsAloneWithoutAMatch() {
    assertThat(LabelFunctions.replace(SOURCE, "dst", "new", "src", "other-(.*)")).isEqualTo(SOURCE);
  }

  @Test
  void replaceMatchesTheWholeValue() {
    assertThat(LabelFunctions.replace(SOURCE, "dst", "new", "src", "value")).isEqualTo(SOURCE);
  }

  @Test
  void replaceWithAnEmptyResultRemovesTheDestination() {
    assertThat(LabelFunctions.replace(SOURCE, "dst", "", "src", ".*").has("dst")).isFalse();
    assertThat(replaced("a", "$1", "(b)?a")).isNull();
  }

  @Test
  void replaceReadsAMissingSourceAsEmpty() {
    assertThat(LabelFunctions.replace(SOURCE, "dst", "was-empty", "missing", "").get("dst"))
        .isEqualTo("was-empty");
  }

  @Test
  void replaceCanSetTheMetricName() {
    assertThat(
            LabelFunctions.replace(SOURCE, "__name__", "renamed_$1", "src", ".*-(\\d+)")
                .metricName())
        .isEqualTo("renamed_10");
  }

  @Test
  void aReferenceTakesTheLongestNameAndBracesEndIt() {
    assertThat(replaced("ab", "[$1x]", "(a)(b)")).isEqualTo("[]");
    assertThat(replaced("ab", "[${1}x]", "(a)(b)")).isEqualTo("[ax]");
    assertThat(replaced("ab", "$0/$2", "(a)(b)")).isEqualTo("ab/b");
  }

  @Test
  void namedGroupsExpandByName() {
    String re = "(?P<first>a)(?P<second>b)";
    assertThat(replaced("ab", "$second-$first", re)).isEqualTo("b-a");
    assertThat(replaced("ab", "${second}_", re)).isEqualTo("b_");
    assertThat(replaced("ab", "$second_|", re)).isEqualTo("|");
    assertThat(replaced("ab", "$2$1", re)).isEqualTo("ba");
  }

  @Test
  void unknownGroupsAndLeadingZerosExpandToNothing() {
    assertThat(replaced("ab", "<$3>", "(a)(b)")).isEqualTo("<>");
    assertThat(replaced("ab", "<$01>", "(a)(b)")).isEqualTo("<>");
    assertThat(replaced("ab", "<$nope>", "(a)(b)")).isEqualTo("<>");
  }

  @Test
  void dollarsThatStartNoReferenceStayLiteral() {
    assertThat(replaced("a", "$$1", "(a)")).isEqualTo("$1");
    assertThat(replaced("a", "cost: $", "(a)")).isEqualTo("cost: $");
    assertThat(replaced("a", "${1", "(a)")).isEqualTo("${1");
    assertThat(replaced("a", "$-", "(a)")).isEqualTo("$-");
  }

  @Test
  void theRegexIsPastedBetweenAnchors() {
    // "^(?:a)|(b)$": the first alternative only needs to start the value.
    assertThat(replaced("axx", "[$0]", "a)|(b")).isEqualTo("[a]");
  }

  @Test
  void theRegexHasGoSyntax() {
    assertThat(replaced("key: 42", "$1", "[[:alpha:]]+:\\s(\\d+)")).isEqualTo("42");
    assertThat(replaced("(x]", "$1", "\\Q(\\E([^]]*)]")).isEqualTo("x");
  }

  @Test
  void replaceRefusesAnInvalidRegexBeforeAnInvalidDestination() {
    assertThatThrownBy(() -> LabelFunctions.replace(SOURCE, "0dst", "x", "src", "(.*"))
        .isInstanceOf(PromqlException.class)
        .hasMessage("invalid regular expression in label_replace(): (.*")
        .extracting(e -> ((PromqlException) e).errorType())
        .isEqualTo(PromqlException.ErrorType.EXECUTION);
    assertThatThrownBy(() -> LabelFunctions.replace(SOURCE, "0dst", "x", "src", "(.*)"))
        .isInstanceOf(PromqlException.class)
        .hasMessage("invalid destination label name in label_replace(): 0dst");
  }

  @Test
  void replaceRefusesWhatRe2Refuses() {
    assertThatThrownBy(() -> LabelFunctions.replace(SOURCE, "dst", "x", "src", "(a)\\1"))
        .hasMessage("invalid regular expression in label_replace(): (a)\\1");
  }

  @Test
  void joinJoinsTheSourceValuesInOrder() {
    LabelSet labels = LabelSet.of("a", "x", "b", "y");
    assertThat(LabelFunctions.join(labels, "ab", "-", "b", "a").get("ab")).isEqualTo("y-x");
    assertThat(LabelFunctions.join(labels, "ab", "-", "a", "missing").get("ab")).isEqualTo("x-");
  }

  @Test
  void joinOfNothingRemovesTheDestination() {
    LabelSet labels = LabelSet.of("a", "x", "dst", "old");
    assertThat(LabelFunctions.join(labels, "dst", "", "missing")).isEqualTo(LabelSet.of("a", "x"));
    assertThat(LabelFunctions.join(labels, "dst", "-")).isEqualTo(LabelSet.of("a", "x"));
  }

  @Test
  void joinRefusesAnInvalidSourceBeforeAnInvalidDestination() {
    assertThatThrownBy(() -> LabelFunctions.join(SOURCE, "1dst", "-", "src", "b-c"))
        .isInstanceOf(PromqlException.class)
        .hasMessage("invalid source label name in label_join(): b-c");
    assertThatThrownBy(() -> LabelFunctions.join(SOURCE, "1dst", "-", "src"))
        .isInstanceOf(PromqlException.class)
        .hasMessage("invalid destination label name in label_join(): 1dst");
  }

  @Test
  void aCompiledReplaceServesManyLabelSets() {
    LabelReplace replace = LabelReplace.compile("dst", "$1", "src", "v-(.)");
    assertThat(replace.apply(LabelSet.of("src", "v-1")).get("dst")).isEqualTo("1");
    assertThat(replace.apply(LabelSet.of("src", "v-2")).get("dst")).isEqualTo("2");
  }

  @Test
  void prometheus3TakesUtf8DestinationsAndADotAcrossANewline() {
    LabelSet text = LabelSet.of("msg", "line one\nline two");

    assertThat(LabelFunctions.replace(text, "first", "$1", "msg", "line (.*)", true).get("first"))
        .isEqualTo("one\nline two");
    assertThat(LabelFunctions.replace(text, "first", "$1", "msg", "line (.*)", false).has("first"))
        .isFalse();
    assertThat(LabelFunctions.replace(SOURCE, "sensor.id", "x", "src", ".*", true).get("sensor.id"))
        .isEqualTo("x");
    assertThat(LabelFunctions.join(true, SOURCE, "a.b", "-", "src").get("a.b"))
        .isEqualTo(SOURCE.get("src"));
    assertThatThrownBy(() -> LabelFunctions.replace(SOURCE, "sensor.id", "x", "src", ".*", false))
        .hasMessage("invalid destination label name in label_replace(): sensor.id");
    assertThatThrownBy(() -> LabelFunctions.replace(SOURCE, "\uFFFD", "x", "src", ".*", true))
        .hasMessage("invalid destination label name in label_replace(): \uFFFD");
    assertThatThrownBy(() -> LabelFunctions.join(true, SOURCE, "", "-", "src"))
        .hasMessage("invalid destination label name in label_join(): ");
  }
}
