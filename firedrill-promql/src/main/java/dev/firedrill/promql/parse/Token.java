package dev.firedrill.promql.parse;

import dev.firedrill.format.GoQuote;

/** One lexed token: its type, its start (a char index into the query) and its text as written. */
record Token(TokenType type, int pos, String text) {

  /**
   * How Prometheus names the token in "unexpected ..." errors: {@code <op:*>}, {@code identifier
   * "foo"}, ...
   */
  String describe() {
    if (type == TokenType.AT) {
      // Prometheus has no display name for '@', so Go prints the yacc token number it was given.
      return "\"<Item 57385>\" <op:" + text + ">";
    }
    return switch (type.kind) {
      case KEYWORD -> "<" + text + ">";
      case OPERATOR -> "<op:" + text + ">";
      case AGGREGATOR -> "<aggr:" + text + ">";
      case PUNCTUATION, PREPROCESSOR -> shortQuoted();
      case OTHER ->
          switch (type) {
            case EOF -> "end of input";
            case IDENTIFIER -> "identifier " + GoQuote.of(text);
            case METRIC_IDENTIFIER -> "metric identifier " + GoQuote.of(text);
            case NUMBER -> "number " + shortQuoted();
            case STRING -> "string " + shortQuoted();
            default -> "duration " + shortQuoted();
          };
    };
  }

  // Prometheus cuts long token texts to ten characters in its messages.
  private String shortQuoted() {
    if (GoText.utf8Length(text) <= 10) {
      return GoQuote.of(text);
    }
    return GoQuote.of(
            text.substring(
                0, text.offsetByCodePoints(0, Math.min(10, text.codePointCount(0, text.length())))))
        + "...";
  }
}
