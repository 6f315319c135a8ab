package dev.firedrill.alerting.routes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The UTF-8 matcher grammar and the fallback, with the messages Alertmanager 0.33.1's amtool prints
 * (checked by hand).
 */
class MatcherSyntaxTest {

  private static List<Matcher> utf8(String text) {
    return MatcherSyntax.UTF8.parseList(text).matchers();
  }

  private static Matcher eq(String name, String value) {
    return Matcher.of(name, MatchType.EQUAL, value);
  }

  @Test
  void readsQuotedAndUnquotedUtf8NamesWithOrWithoutBraces() {
    assertThat(utf8("\"service.name\"=\"x\"")).containsExactly(eq("service.name", "x"));
    assertThat(utf8("service.name=\"x\"")).containsExactly(eq("service.name", "x"));
    assertThat(utf8("{service.name=x, \"team name\"!=\"a, b\",}"))
        .containsExactly(
            eq("service.name", "x"), Matcher.of("team name", MatchType.NOT_EQUAL, "a, b"));
    assertThat(utf8("  été =~ crit.* "))
        .containsExactly(Matcher.of("été", MatchType.REGEXP, "crit.*"));
    assertThat(utf8("a!~\"x|y\",b=c"))
        .extracting(Matcher::type)
        .containsExactly(MatchType.NOT_REGEXP, MatchType.EQUAL);
    assertThat(utf8("")).isEmpty();
    assertThat(utf8("{}")).isEmpty();
    assertThat(utf8("{ }")).isEmpty();
  }

  @Test
  void quotedTextIsAGoStringLiteral() {
    assertThat(utf8("a=\"tab\\there\"")).containsExactly(eq("a", "tab\there"));
    assertThat(utf8("a=\"\\u00e9\\x41\\101\\\\\\\"\"")).containsExactly(eq("a", "éAA\\\""));
    assertThat(utf8("a=\"\\xc3\\xa9\"")).containsExactly(eq("a", "é"));
    assertThat(utf8("a=\"\\U0001F600\"")).containsExactly(eq("a", "\uD83D\uDE00"));
  }

  @Test
  void refusesWithAlertmanagersMessages() {
    assertRefused("foo=bar baz", "8:11: unexpected baz: expected a comma or close brace");
    assertRefused("{a=b", "0:4: end of input: expected close brace");
    assertRefused("a=b}", "0:4: }: expected opening brace");
    assertRefused(
        "a!b",
        "1:2: !: expected one of '=~': expected an operator such as '=', '!=', '=~' or '!~'");
    assertRefused(
        "a!",
        "1:2: unexpected end of input, expected one of '=~': expected an operator such as '=', '!=', "
            + "'=~' or '!~'");
    assertRefused("a=", "end of input: expected label value");
    assertRefused("a", "end of input: expected an operator such as '=', '!=', '=~' or '!~'");
    assertRefused("a b", "2:3: unexpected b: expected an operator such as '=', '!=', '=~' or '!~'");
    assertRefused("~", "0:1: ~: invalid input");
    assertRefused("{~", "1:2: ~: invalid input");
    assertRefused("=a", "0:1: unexpected =: expected label name");
    assertRefused("a=\"\\q\"", "2:6: \"\\q\": invalid input");
    assertRefused("a=\"\\'\"", "2:6: \"\\'\": invalid input");
    assertRefused("a=\"\\xff\"", "2:8: \"\\xff\": invalid input");
    assertRefused("\"a\nb\"=c", "0:5: \"a\nb\": invalid input");
    assertRefused("a=\"open", "2:7: \"open: missing end \": expected label value");
    assertRefused("a=b,,", "4:5: unexpected ,: expected a matcher or close brace after comma");
    assertRefused("a=b\\", "3:4: \\: invalid input: expected a comma or close brace");
    assertRefused("{a=b}c", "5:6: c: expected end of input");
    assertRefused("{}}", "2:3: }: expected end of input");
    assertRefused("é=ü ö", "4:5: unexpected ö: expected a comma or close brace");
    assertThatThrownBy(() -> utf8("d=~\"(x\""))
        .hasMessageStartingWith("failed to create matcher: invalid regular expression");
  }

  private static void assertRefused(String text, String message) {
    assertThatThrownBy(() -> utf8(text))
        .as(text)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void oneMatcherRefusesBracesAndCountsTheMatchers() {
    assertThat(MatcherSyntax.UTF8.parseOne("service.name=x").matchers())
        .containsExactly(eq("service.name", "x"));
    assertThatThrownBy(() -> MatcherSyntax.UTF8.parseOne("{a=b}"))
        .hasMessage("unexpected open or close brace: {a=b}");
    assertThatThrownBy(() -> MatcherSyntax.FALLBACK.parseOne("a=b}"))
        .hasMessage("unexpected open or close brace: a=b}");
    assertThatThrownBy(() -> MatcherSyntax.UTF8.parseOne("a=b,c=d"))
        .hasMessage("expected 1 matcher, found 2");
    assertThatThrownBy(() -> MatcherSyntax.UTF8.parseOne("")).hasMessage("no matchers");
    assertThatThrownBy(() -> MatcherSyntax.CLASSIC.parseOne("{a=b}"))
        .hasMessage("bad matcher format: {a=b}");
    // Two matchers for UTF-8, one value "b,c=d" for the classic parser, which decides.
    assertThat(MatcherSyntax.FALLBACK.parseOne("a=b,c=d").matchers())
        .containsExactly(eq("a", "b,c=d"));
  }

  @Test
  void fallbackKeepsTheClassicReadingWheneverThereIsOne() {
    MatcherSyntax.Parsed utf8Only = MatcherSyntax.FALLBACK.parseList("\"service.name\"=\"x\"");
    assertThat(utf8Only)
        .isEqualTo(new MatcherSyntax.Parsed(List.of(eq("service.name", "x")), Optional.empty()));

    MatcherSyntax.Parsed classicOnly = MatcherSyntax.FALLBACK.parseList("foo=bar baz");
    assertThat(classicOnly.matchers()).containsExactly(eq("foo", "bar baz"));
    assertThat(classicOnly.warning())
        .contains(
            "read by the classic matcher parser only, which Alertmanager will stop"
                + " using (the UTF-8 parser says: 8:11: unexpected baz: expected a comma or close brace); write it as"
                + " foo=\"bar baz\"");

    MatcherSyntax.Parsed disagreement = MatcherSyntax.FALLBACK.parseList("a=\"\\t\"");
    assertThat(disagreement.matchers()).containsExactly(eq("a", "\\t"));
    assertThat(disagreement.warning())
        .contains(
            "the UTF-8 and classic matcher parsers disagree on \"a=\\\"\\\\t\\\"\";"
                + " Alertmanager keeps the classic reading a=\"\\\\t\"");

    MatcherSyntax.Parsed same =
        MatcherSyntax.FALLBACK.parseList("{team=\"payments\", env=~\"prod|staging\"}");
    assertThat(same.warning()).isEmpty();
    assertThat(same.matchers()).hasSize(2);
    // Go's DeepEqual tells a nil list from an empty one, so Alertmanager logs a disagreement here
    // too.
    assertThat(MatcherSyntax.FALLBACK.parseList("").warning()).isPresent();

    assertThatThrownBy(() -> MatcherSyntax.FALLBACK.parseList("a!b"))
        .hasMessage("bad matcher format: a!b");
    assertThatThrownBy(() -> MatcherSyntax.CLASSIC.parseList("service.name=x"))
        .hasMessage("bad matcher format: service.name=x");
  }

  @Test
  void labelNamesPerGrammar() {
    assertThat(MatcherSyntax.CLASSIC.validLabelName("service.name")).isFalse();
    assertThat(MatcherSyntax.CLASSIC.validLabelName("service_name")).isTrue();
    assertThat(MatcherSyntax.FALLBACK.validLabelName("service.name")).isTrue();
    assertThat(MatcherSyntax.UTF8.validLabelName("")).isFalse();
    assertThat(MatcherSyntax.of("UTF8")).contains(MatcherSyntax.UTF8);
    assertThat(MatcherSyntax.of("strict")).isEmpty();
  }

  @Test
  void printsAsAlertmanagerPrintsThem() {
    assertThat(eq("service.name", "x\"y").toString()).isEqualTo("service.name=\"x\\\"y\"");
    assertThat(eq("team name", "tab\tnew\nline é \u0001").toString())
        .isEqualTo("\"team name\"=\"tab\\tnew\\nline é \\x01\"");
    assertThat(Matcher.of("a{b}", MatchType.NOT_REGEXP, "x\u00a0").toString())
        .isEqualTo("\"a{b}\"!~\"x\\u00a0\"");
  }
}
