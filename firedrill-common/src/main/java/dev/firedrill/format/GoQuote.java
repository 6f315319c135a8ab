package dev.firedrill.format;

/**
 * Go's {@code strconv.Quote} ({@code %q}) and {@code strconv.QuoteRune}: the quoting in
 * Prometheus's and Alertmanager's messages, so firedrill's copies of those messages read byte for
 * byte the same.
 */
public final class GoQuote {

  private GoQuote() {}

  /**
   * {@code strconv.Quote}: printable characters kept, {@code "} and {@code \} escaped, the rest as
   * escapes.
   */
  public static String of(String text) {
    StringBuilder out = new StringBuilder(text.length() + 2).append('"');
    text.codePoints().forEach(c -> escape(out, c, '"'));
    return out.append('"').toString();
  }

  /**
   * {@code strconv.QuoteRune}: {@code 'c'}, {@code '\''}, {@code '\n'}; what is no code point
   * quotes as U+FFFD.
   */
  public static String rune(int c) {
    boolean valid = c >= 0 && c <= Character.MAX_CODE_POINT && !(c >= 0xD800 && c <= 0xDFFF);
    StringBuilder out = new StringBuilder("'");
    escape(out, valid ? c : 0xFFFD, '\'');
    return out.append('\'').toString();
  }

  /**
   * Go's {@code unicode.IsPrint}: letters, marks, numbers, punctuation, symbols, and the ASCII
   * space.
   */
  public static boolean isPrint(int c) {
    if (c == ' ') {
      return true;
    }
    return switch (Character.getType(c)) {
      case Character.UPPERCASE_LETTER,
          Character.LOWERCASE_LETTER,
          Character.TITLECASE_LETTER,
          Character.MODIFIER_LETTER,
          Character.OTHER_LETTER,
          Character.NON_SPACING_MARK,
          Character.ENCLOSING_MARK,
          Character.COMBINING_SPACING_MARK,
          Character.DECIMAL_DIGIT_NUMBER,
          Character.LETTER_NUMBER,
          Character.OTHER_NUMBER,
          Character.CONNECTOR_PUNCTUATION,
          Character.DASH_PUNCTUATION,
          Character.START_PUNCTUATION,
          Character.END_PUNCTUATION,
          Character.INITIAL_QUOTE_PUNCTUATION,
          Character.FINAL_QUOTE_PUNCTUATION,
          Character.OTHER_PUNCTUATION,
          Character.MATH_SYMBOL,
          Character.CURRENCY_SYMBOL,
          Character.MODIFIER_SYMBOL,
          Character.OTHER_SYMBOL ->
          true;
      default -> false;
    };
  }

  private static void escape(StringBuilder out, int c, char quote) {
    if (c == quote || c == '\\') {
      out.append('\\').appendCodePoint(c);
      return;
    }
    if (isPrint(c)) {
      out.appendCodePoint(c);
      return;
    }
    switch (c) {
      case 0x07 -> out.append("\\a");
      case '\b' -> out.append("\\b");
      case '\f' -> out.append("\\f");
      case '\n' -> out.append("\\n");
      case '\r' -> out.append("\\r");
      case '\t' -> out.append("\\t");
      case 0x0B -> out.append("\\v");
      default -> {
        if (c < ' ' || c == 0x7F) {
          out.append(String.format("\\x%02x", c));
        } else if (c < 0x10000) {
          // A lone surrogate cannot come from decoded UTF-8; Go would have seen the replacement
          // character.
          out.append(String.format("\\u%04x", Character.isSurrogate((char) c) ? 0xFFFD : c));
        } else {
          out.append(String.format("\\U%08x", c));
        }
      }
    }
  }
}
