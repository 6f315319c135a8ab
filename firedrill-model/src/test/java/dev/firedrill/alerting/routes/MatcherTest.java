package dev.firedrill.alerting.routes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class MatcherTest {

  @Test
  void parsesEachOperatorQuotedOrNot() {
    assertThat(Matcher.parse("team=\"payments\""))
        .isEqualTo(Matcher.of("team", MatchType.EQUAL, "payments"));
    assertThat(Matcher.parse("team=payments"))
        .isEqualTo(Matcher.of("team", MatchType.EQUAL, "payments"));
    assertThat(Matcher.parse("env!=\"dev\""))
        .isEqualTo(Matcher.of("env", MatchType.NOT_EQUAL, "dev"));
    assertThat(Matcher.parse("severity=~\"critical|page\"").type()).isEqualTo(MatchType.REGEXP);
    assertThat(Matcher.parse("env!~prod.*").type()).isEqualTo(MatchType.NOT_REGEXP);
    assertThat(Matcher.parse("  a:b_1  =   spaced value  "))
        .isEqualTo(Matcher.of("a:b_1", MatchType.EQUAL, "spaced value"));
    assertThat(Matcher.parse("empty=")).isEqualTo(Matcher.of("empty", MatchType.EQUAL, ""));
    assertThat(Matcher.parse("a==b").value()).isEqualTo("=b");
  }

  @Test
  void unescapesAsOpenMetrics() {
    assertThat(Matcher.parse("m=\"say \\\"hi\\\"\"").value()).isEqualTo("say \"hi\"");
    assertThat(Matcher.parse("m=\"a\\\\b\"").value()).isEqualTo("a\\b");
    assertThat(Matcher.parse("m=\"line\\nnext\"").value()).isEqualTo("line\nnext");
    assertThat(Matcher.parse("m=\"spurious \\d\"").value()).isEqualTo("spurious \\d");
    assertThat(Matcher.parse("m=trailing\\").value()).isEqualTo("trailing\\");
    assertThat(Matcher.parse("m=\"a\\\"b\"").toString()).isEqualTo("m=\"a\\\"b\"");
  }

  @Test
  void refusesWhatAlertmanagerRefuses() {
    assertThatThrownBy(() -> Matcher.parse("team")).hasMessage("bad matcher format: team");
    assertThatThrownBy(() -> Matcher.parse("1team=a")).hasMessage("bad matcher format: 1team=a");
    assertThatThrownBy(() -> Matcher.parse("a=\"open"))
        .hasMessage("matcher value contains unescaped double quote: \"open");
    assertThatThrownBy(() -> Matcher.parse("a=b\"c"))
        .hasMessage("matcher value contains unescaped double quote: b\"c");
    assertThatThrownBy(() -> Matcher.parse("a=~\"(\""))
        .hasMessageStartingWith("invalid regular expression \"(\": ");
    assertThatThrownBy(() -> Matcher.parse("a=~\"(a)\\\\1\""))
        .hasMessageContaining("back-references are not supported");
    assertThatThrownBy(() -> Matcher.parse("a=~\"(?=x)\""))
        .hasMessageContaining("invalid or unsupported Perl syntax");
    assertThatThrownBy(() -> Matcher.parse("a=~\"a*+\""))
        .hasMessageContaining("invalid nested repetition operator");
  }

  @Test
  void parsesListsWithBracesQuotedCommasAndATrailingComma() {
    assertThat(Matcher.parseList("{service=\"api\", env=~\"prod|staging\",}"))
        .containsExactly(
            Matcher.of("service", MatchType.EQUAL, "api"),
            Matcher.of("env", MatchType.REGEXP, "prod|staging"));
    assertThat(Matcher.parseList("msg=\"a, b\",x=y"))
        .containsExactly(
            Matcher.of("msg", MatchType.EQUAL, "a, b"), Matcher.of("x", MatchType.EQUAL, "y"));
    assertThat(Matcher.parseList("")).isEmpty();
    assertThatThrownBy(() -> Matcher.parseList("a=1,,b=2")).hasMessage("bad matcher format: ");
  }

  @Test
  void regexesAreAnchoredAndMissingLabelsAreEmpty() {
    Matcher regex = Matcher.parse("severity=~\"crit|page\"");
    assertThat(regex.matches("crit")).isTrue();
    assertThat(regex.matches("critical")).isFalse();
    assertThat(regex.matches("xpage")).isFalse();
    assertThat(Matcher.parse("env=\"\"").matches(null)).isTrue();
    assertThat(Matcher.parse("env!~\".+\"").matches(null)).isTrue();
    assertThat(Matcher.parse("env!=\"prod\"").matches(null)).isTrue();
    assertThat(Matcher.parse("env=~\".+\"").matches("")).isFalse();
  }

  @Test
  void goRegexSyntaxMeansWhatItMeansInGo() {
    assertThat(Matcher.parse("a=~\"[[:alpha:]]+\"").matches("abc")).isTrue();
    assertThat(Matcher.parse("a=~\"[[:alpha:]]+\"").matches("a:")).isFalse();
    assertThat(Matcher.parse("a=~\"[[:^digit:]]\"").matches("x")).isTrue();
    assertThat(Matcher.parse("a=~\"(?P<x>ab)c\"").matches("abc")).isTrue();
    assertThat(Matcher.parse("a=~\"x{y}\"").matches("x{y}")).isTrue();
    assertThat(Matcher.parse("a=~\"[&&b]+\"").matches("&&b")).isTrue();
    assertThat(Matcher.parse("a=~\"\\\\s\"").matches("\u000B")).isFalse();
    assertThat(Matcher.parse("a=~\"a.b\"").matches("a\rb")).isTrue();
    assertThat(Matcher.parse("a=~\"a.b\"").matches("a\nb")).isFalse();
    assertThat(Matcher.parse("a=~\"(?i)straße\"").matches("STRASSE")).isFalse();
    assertThat(Matcher.parse("a=~\"(?i)ÉTÉ\"").matches("été")).isTrue();
    assertThat(Matcher.parse("a=~\"\\\\bx\"").matches("x")).isTrue();
  }

  @Test
  void sortsAsAlertmanager() {
    List<Matcher> matchers = new java.util.ArrayList<>(Matcher.parseList("b=1,a=~2,a=2,a!=2,a=1"));
    matchers.sort(Matcher.ORDER);
    assertThat(matchers)
        .extracting(Matcher::toString)
        .containsExactly("a=\"1\"", "a=\"2\"", "a!=\"2\"", "a=~\"2\"", "b=\"1\"");
  }
}
