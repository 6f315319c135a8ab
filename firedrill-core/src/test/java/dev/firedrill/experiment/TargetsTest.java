package dev.firedrill.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TargetsTest {

  private static final String EXPERIMENT =
      "histogram_quantile(0.95, sum by (le) (rate(http_seconds_bucket{pod=~\"{{ targets }}\"}[1m])))";
  private static final String CONTROL =
      "histogram_quantile(0.95, sum by (le) (rate(http_seconds_bucket{pod!~\"{{targets}}\"}[1m])))";

  @Test
  void afterInjectionTheMatcherHoldsTheSelectedNamesAsAnAlternation() {
    Targets targets = Targets.of(List.of("checkout-7d9f-abcde", "checkout-7d9f-fghij"));

    assertThat(targets.resolve(EXPERIMENT))
        .isEqualTo(
            "histogram_quantile(0.95, sum by (le) (rate(http_seconds_bucket"
                + "{pod=~\"checkout-7d9f-abcde|checkout-7d9f-fghij\"}[1m])))");
    assertThat(targets.resolve(CONTROL))
        .isEqualTo(
            "histogram_quantile(0.95, sum by (le) (rate(http_seconds_bucket"
                + "{pod!~\"checkout-7d9f-abcde|checkout-7d9f-fghij\"}[1m])))");
  }

  @Test
  void beforeInjectionBothGroupsAreTheWholeGroup() {
    assertThat(Targets.BEFORE_INJECTION.resolve("up{pod=~\"{{ targets }}\"}"))
        .isEqualTo("up{pod=~\".*\"}");
    assertThat(Targets.BEFORE_INJECTION.resolve("up{pod!~\"{{ targets }}\"}"))
        .isEqualTo("up{pod=~\".*\"}");
    assertThat(Targets.BEFORE_INJECTION.injected()).isFalse();
  }

  @Test
  void aFaultThatSelectedNothingMatchesNoName() {
    assertThat(Targets.of(List.of()).resolve("up{pod=~\"{{ targets }}\"}"))
        .isEqualTo("up{pod=~\"[^\\\\s\\\\S]\"}");
    assertThat(Pattern.compile(Targets.NOTHING).matcher("").matches()).isFalse();
    assertThat(Pattern.compile(Targets.NOTHING).matcher("checkout-1").matches()).isFalse();
  }

  @Test
  void namesAreEachKeptOnceInTheirOrder() {
    assertThat(Targets.of(List.of("b", "a", "b")).names()).containsExactly("b", "a");
  }

  @Test
  void regexMetacharactersAndQuotesCannotEscapeTheLiteralOrTheAlternative() {
    // As PromQL reads "...": the string's escapes first, then the regex.
    String name = "a.b|c\"d\\e'f`g(h)*";
    String regex = Targets.regexLiteral(name);
    assertThat(regex).isEqualTo("a\\.b\\|c\\x{22}d\\\\e\\x{27}f\\x{60}g\\(h\\)\\*");
    assertThat(Pattern.compile(regex).matcher(name).matches()).isTrue();
    assertThat(Pattern.compile(regex).matcher("aXb").matches()).isFalse();

    String resolved = Targets.of(List.of(name)).resolve("up{pod=~\"{{ targets }}\"}");
    assertThat(resolved)
        .isEqualTo(
            "up{pod=~\"a\\\\.b\\\\|c\\\\x{22}d\\\\\\\\e\\\\x{27}f\\\\x{60}g\\\\(h\\\\)\\\\*\"}");
    assertThat(resolved.chars().filter(c -> c == '"').count()).isEqualTo(2);
  }

  @Test
  void aRawStringKeepsItsBackslashesSingle() {
    assertThat(Targets.of(List.of("a.b")).resolve("up{pod=~`{{ targets }}`}"))
        .isEqualTo("up{pod=~`a\\.b`}");
    assertThat(Targets.of(List.of("a.b")).resolve("up{pod=~'{{ targets }}'}"))
        .isEqualTo("up{pod=~'a\\\\.b'}");
  }

  @Test
  void thePlaceholderOutsideARegexMatcherIsRefused() {
    String expected =
        "expected {{ targets }} only as the whole value of a regex matcher, such as"
            + " pod=~\"{{ targets }}\" or pod!~\"{{ targets }}\"";
    assertThat(Targets.misuse("up{pod=\"{{ targets }}\"}")).contains(expected);
    assertThat(Targets.misuse("up{pod=~\"{{ targets }}|canary\"}")).contains(expected);
    assertThat(Targets.misuse("label_replace(up, \"x\", \"{{ targets }}\", \"\", \"\")"))
        .contains(expected);
    assertThat(Targets.misuse("up{pod=~\"{{ targets }}\"} / up{pod!~ \"{{targets}}\"}")).isEmpty();
    assertThat(Targets.misuse("up")).isEmpty();
  }
}
