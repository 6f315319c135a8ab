package dev.firedrill.promql.parse;

import dev.firedrill.promql.model.PromqlException;

/**
 * Prometheus's parse error text: {@code line:column: parse error: message}, the column in UTF-8
 * bytes.
 */
final class ParseErrors {

  private ParseErrors() {}

  static PromqlException at(String query, int pos, String message) {
    return new PromqlException(
        PromqlException.ErrorType.BAD_DATA, lineColumn(query, pos) + ": parse error: " + message);
  }

  /** {@code line:column} of {@code pos}, the column in UTF-8 bytes from 1. */
  static String lineColumn(String query, int pos) {
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < pos; i++) {
      if (query.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    int column = GoText.utf8Length(query.substring(lineStart, pos)) + 1;
    return line + ":" + column;
  }
}
