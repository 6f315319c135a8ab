package dev.firedrill.promql.parse;

import dev.firedrill.format.GoQuote;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Go's text conventions that Prometheus's messages and string literals follow: {@code %#U},
 * unquoting ({@code %q}: GoQuote).
 */
final class GoText {

  private GoText() {}

  /**
   * Go's {@code %q} of a rune; -1 stands for the end of input, which Go prints as the replacement
   * character.
   */
  static String quoteRune(int cp) {
    return GoQuote.rune(cp < 0 ? 0xFFFD : cp);
  }

  /**
   * Go's {@code %#U}: {@code U+0063 'c'}, without the quoted form when the rune is not printable.
   */
  static String describeRune(int cp) {
    String code = String.format("U+%04X", cp);
    return GoQuote.isPrint(cp) ? code + " '" + new String(Character.toChars(cp)) + "'" : code;
  }

  /** Positions in Prometheus's messages count UTF-8 bytes. */
  static int utf8Length(CharSequence s) {
    return s.toString().getBytes(StandardCharsets.UTF_8).length;
  }

  /**
   * Prometheus's {@code strutil.Unquote} of a literal whose escapes the lexer has already
   * validated.
   */
  static String unquote(String literal) {
    char quote = literal.charAt(0);
    String body = literal.substring(1, literal.length() - 1);
    if (quote == '`') {
      return body;
    }
    // \x and octal escapes are single bytes, so the result is assembled as UTF-8 and decoded once.
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int i = 0;
    while (i < body.length()) {
      int cp = body.codePointAt(i);
      if (cp != '\\') {
        bytes.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
        i += Character.charCount(cp);
        continue;
      }
      char c = body.charAt(i + 1);
      i += 2;
      switch (c) {
        case 'a' -> bytes.write(7);
        case 'b' -> bytes.write('\b');
        case 'f' -> bytes.write('\f');
        case 'n' -> bytes.write('\n');
        case 'r' -> bytes.write('\r');
        case 't' -> bytes.write('\t');
        case 'v' -> bytes.write(11);
        case 'x' -> {
          bytes.write(Integer.parseInt(body.substring(i, i + 2), 16));
          i += 2;
        }
        case 'u', 'U' -> {
          int n = c == 'u' ? 4 : 8;
          int code = Integer.parseInt(body.substring(i, i + n), 16);
          bytes.writeBytes(new String(Character.toChars(code)).getBytes(StandardCharsets.UTF_8));
          i += n;
        }
        case '0', '1', '2', '3', '4', '5', '6', '7' -> {
          bytes.write(Integer.parseInt(body.substring(i - 1, i + 2), 8));
          i += 2;
        }
        default -> bytes.write(c);
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
