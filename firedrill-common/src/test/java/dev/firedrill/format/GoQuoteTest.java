package dev.firedrill.format;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Expected strings are what Go's strconv.Quote and strconv.QuoteRune return for the same text. */
class GoQuoteTest {

  @Test
  void quotesAndBackslashesAreEscapedAndPrintableTextKept() {
    assertThat(GoQuote.of("a\"b\\c'd")).isEqualTo("\"a\\\"b\\\\c'd\"");
    assertThat(GoQuote.of("é 😀 ü")).isEqualTo("\"é 😀 ü\"");
    assertThat(GoQuote.of("")).isEqualTo("\"\"");
  }

  @Test
  void controlAndInvisibleCharactersBecomeEscapes() {
    assertThat(GoQuote.of("\u0007\b\f\n\r\t\u000b")).isEqualTo("\"\\a\\b\\f\\n\\r\\t\\v\"");
    assertThat(GoQuote.of("\u0001\u007f")).isEqualTo("\"\\x01\\x7f\"");
    assertThat(GoQuote.of("a\u00a0b\u200bc")).isEqualTo("\"a\\u00a0b\\u200bc\"");
    assertThat(GoQuote.of("\uDB40\uDC01")).isEqualTo("\"\\U000e0001\"");
  }

  @Test
  void runesAreQuotedSingly() {
    assertThat(GoQuote.rune('c')).isEqualTo("'c'");
    assertThat(GoQuote.rune('\'')).isEqualTo("'\\''");
    assertThat(GoQuote.rune('"')).isEqualTo("'\"'");
    assertThat(GoQuote.rune('\n')).isEqualTo("'\\n'");
    assertThat(GoQuote.rune(0x1F600)).isEqualTo("'😀'");
    assertThat(GoQuote.rune(0xD800)).isEqualTo("'\uFFFD'");
  }
}
