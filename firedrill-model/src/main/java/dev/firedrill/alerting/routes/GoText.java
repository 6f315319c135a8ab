package dev.firedrill.alerting.routes;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * What Alertmanager's matcher code takes from Go's standard library, so firedrill reads and prints
 * matchers byte for byte as it does: {@code unicode.IsSpace}, {@code strings.TrimSpace} and {@code
 * strconv.Unquote} of a double-quoted string ({@code strconv.Quote}: GoQuote).
 */
final class GoText {

  private GoText() {}

  /**
   * Go's {@code unicode.IsSpace}: Latin-1's six ASCII spaces, NEL and NBSP, and Unicode's
   * White_Space above it.
   */
  static boolean isSpace(int c) {
    if (c <= 0xFF) {
      return c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r' || c == ' ' || c == 0x85
          || c == 0xA0;
    }
    return c == 0x1680
        || c >= 0x2000 && c <= 0x200A
        || c == 0x2028
        || c == 0x2029
        || c == 0x202F
        || c == 0x205F
        || c == 0x3000;
  }

  static String trimSpace(String text) {
    int start = 0;
    int end = text.length();
    while (start < end && isSpace(text.codePointAt(start))) {
      start += Character.charCount(text.codePointAt(start));
    }
    while (end > start && isSpace(text.codePointBefore(end))) {
      end -= Character.charCount(text.codePointBefore(end));
    }
    return text.substring(start, end);
  }

  /**
   * Go's {@code strconv.Unquote} of a double-quoted string, and the UTF-8 check Alertmanager adds;
   * null when Go refuses it: an unescaped line feed or quote, an unknown escape (such as {@code \q}
   * or {@code \'}), or bytes ({@code \xff}, {@code \377}) that do not make UTF-8.
   */
  static String unquote(String quoted) {
    if (quoted.length() < 2
        || quoted.charAt(0) != '"'
        || quoted.charAt(quoted.length() - 1) != '"') {
      return null;
    }
    String s = quoted.substring(1, quoted.length() - 1);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
    int i = 0;
    while (i < s.length()) {
      int c = s.codePointAt(i);
      i += Character.charCount(c);
      if (c == '"' || c == '\n' || Character.isSurrogate((char) c) && c < 0x10000) {
        return null;
      }
      if (c != '\\') {
        utf8(bytes, c);
        continue;
      }
      if (i >= s.length()) {
        return null;
      }
      char e = s.charAt(i++);
      switch (e) {
        case 'a' -> bytes.write(0x07);
        case 'b' -> bytes.write('\b');
        case 'f' -> bytes.write('\f');
        case 'n' -> bytes.write('\n');
        case 'r' -> bytes.write('\r');
        case 't' -> bytes.write('\t');
        case 'v' -> bytes.write(0x0B);
        case '\\', '"' -> bytes.write(e);
        case 'x', 'u', 'U' -> {
          int digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
          if (i + digits > s.length()) {
            return null;
          }
          long value = 0;
          for (int j = 0; j < digits; j++) {
            int d = Character.digit(s.charAt(i + j), 16);
            if (d < 0 || s.charAt(i + j) > 0x7F) {
              return null;
            }
            value = value << 4 | d;
          }
          i += digits;
          if (e == 'x') {
            bytes.write((int) value);
          } else if (value > 0x10FFFF || value >= 0xD800 && value <= 0xDFFF) {
            return null;
          } else {
            utf8(bytes, (int) value);
          }
        }
        case '0', '1', '2', '3', '4', '5', '6', '7' -> {
          if (i + 2 > s.length()) {
            return null;
          }
          int value = e - '0';
          for (int j = 0; j < 2; j++) {
            int d = s.charAt(i + j) - '0';
            if (d < 0 || d > 7) {
              return null;
            }
            value = value << 3 | d;
          }
          i += 2;
          if (value > 255) {
            return null;
          }
          bytes.write(value);
        }
        default -> {
          return null;
        }
      }
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray()))
          .toString();
    } catch (CharacterCodingException invalid) {
      return null;
    }
  }

  private static void utf8(ByteArrayOutputStream bytes, int c) {
    byte[] encoded = new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8);
    bytes.write(encoded, 0, encoded.length);
  }
}
