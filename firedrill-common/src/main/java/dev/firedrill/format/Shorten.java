package dev.firedrill.format;

/**
 * Text cut for a message, on code points: a cut never splits a character in two. Redact secrets
 * before cutting: a secret cut in half is no longer found by its redaction, and its first
 * characters leak.
 */
public final class Shorten {

  private Shorten() {}

  /** {@code line} when it has at most {@code limit} code points, else its first ones and "...". */
  public static String cut(String line, int limit) {
    if (line.codePointCount(0, line.length()) <= limit) {
      return line;
    }
    return line.substring(0, line.offsetByCodePoints(0, limit)) + "...";
  }
}
