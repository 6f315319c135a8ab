package dev.firedrill.format;

/**
 * Control characters made visible, for every line firedrill prints about an input: a crafted file
 * must not clear or recolour the operator's terminal with an escape sequence, nor split one problem
 * over two lines with a newline. Printable text, including any language's letters, is kept.
 */
public final class ControlChars {

  private ControlChars() {}

  /**
   * {@code text} with each control character written as an escape: {@code \n}, {@code \r}, {@code
   * \t}, {@code \x1b}; other C0 and C1 controls, DEL, the line and paragraph separators and the
   * bidirectional overrides as {@code \xNN} or a backslash, u and four hex digits.
   */
  public static String quote(String text) {
    if (text == null || text.codePoints().noneMatch(ControlChars::control)) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length() + 8);
    text.codePoints()
        .forEach(
            c -> {
              if (!control(c)) {
                out.appendCodePoint(c);
              } else if (c == '\n') {
                out.append("\\n");
              } else if (c == '\r') {
                out.append("\\r");
              } else if (c == '\t') {
                out.append("\\t");
              } else if (c <= 0xFF) {
                out.append(String.format("\\x%02x", c));
              } else {
                out.append(String.format("\\u%04x", c));
              }
            });
    return out.toString();
  }

  private static boolean control(int c) {
    return c < 0x20
        || (c >= 0x7F && c <= 0x9F)
        || c == 0x2028
        || c == 0x2029
        || (c >= 0x202A && c <= 0x202E)
        || (c >= 0x2066 && c <= 0x2069);
  }
}
