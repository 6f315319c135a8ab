package dev.firedrill.alerting.routes;

/**
 * The tokens of Alertmanager's UTF-8 matcher grammar ({@code matcher/parse}): braces, commas, the
 * four operators, double-quoted text and unquoted text (anything up to a space or one of <code>
 * {}!=~,\"'`</code>). Columns count code points from 0, as Alertmanager's messages do; an error is
 * sticky, so a peek that failed fails every later scan the same way.
 */
final class Utf8Lexer {

  enum Kind {
    EOF,
    OPEN_BRACE,
    CLOSE_BRACE,
    COMMA,
    EQUALS,
    NOT_EQUALS,
    MATCHES,
    NOT_MATCHES,
    QUOTED,
    UNQUOTED
  }

  record Token(Kind kind, String value, int columnStart, int columnEnd) {
    static final Token END = new Token(Kind.EOF, "", 0, 0);
  }

  /**
   * A message as Alertmanager words it; {@code endOfInput} for its {@code errEOF}, which callers
   * treat apart.
   */
  static final class Failure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final boolean endOfInput;

    Failure(String message, boolean endOfInput) {
      super(message, null, false, false);
      this.endOfInput = endOfInput;
    }
  }

  private static final int END = -1;
  private static final String RESERVED = "{}!=~,\\\"'`";

  private final String input;
  private Failure failure;

  /** Offsets (chars) of the current token and of the cursor; columns (code points) of the same. */
  private int start;

  private int pos;
  private int width;
  private int column;
  private int cols;

  Utf8Lexer(String input) {
    this.input = input;
  }

  static boolean reserved(int c) {
    return GoText.isSpace(c) || RESERVED.indexOf(c) >= 0;
  }

  /** Columns consumed so far, for the messages that name only the end. */
  int columns() {
    return cols;
  }

  Token scan() {
    if (failure != null) {
      throw failure;
    }
    for (int c = next(); c != END; c = next()) {
      switch (c) {
        case '{' -> {
          return emit(Kind.OPEN_BRACE);
        }
        case '}' -> {
          return emit(Kind.CLOSE_BRACE);
        }
        case ',' -> {
          return emit(Kind.COMMA);
        }
        case '=', '!' -> {
          rewind();
          return operator();
        }
        case '"' -> {
          rewind();
          return quoted();
        }
        default -> {
          if (!reserved(c)) {
            rewind();
            return unquoted();
          }
          if (GoText.isSpace(c)) {
            start = pos;
            column = cols;
          } else {
            throw fail(
                column + ":" + cols + ": " + input.substring(start, pos) + ": invalid input");
          }
        }
      }
    }
    return Token.END;
  }

  /** The next token, the cursor left where it was; a failure stays for the next scan. */
  Token peek() {
    int savedStart = start;
    int savedPos = pos;
    int savedWidth = width;
    int savedColumn = column;
    int savedCols = cols;
    try {
      return scan();
    } finally {
      start = savedStart;
      pos = savedPos;
      width = savedWidth;
      column = savedColumn;
      cols = savedCols;
    }
  }

  private Token operator() {
    if (accept("!")) {
      if (accept("=")) {
        return emit(Kind.NOT_EQUALS);
      }
      if (accept("~")) {
        return emit(Kind.NOT_MATCHES);
      }
      throw expected("=~");
    }
    if (accept("=")) {
      return emit(accept("~") ? Kind.MATCHES : Kind.EQUALS);
    }
    throw expected("!=");
  }

  private Token quoted() {
    next();
    boolean escaped = false;
    for (int c = next(); c != END; c = next()) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        rewind();
        break;
      }
    }
    if (!accept("\"")) {
      throw fail(column + ":" + cols + ": " + input.substring(start, pos) + ": missing end \"");
    }
    return emit(Kind.QUOTED);
  }

  private Token unquoted() {
    for (int c = next(); c != END; c = next()) {
      if (reserved(c)) {
        rewind();
        break;
      }
    }
    return emit(Kind.UNQUOTED);
  }

  private Failure expected(String runes) {
    if (pos >= input.length()) {
      return fail(
          column + ":" + cols + ": unexpected end of input, expected one of '" + runes + "'");
    }
    return fail(
        column
            + ":"
            + cols
            + ": "
            + input.substring(start, pos)
            + ": expected one of '"
            + runes
            + "'");
  }

  private Failure fail(String message) {
    failure = new Failure(message, false);
    return failure;
  }

  private boolean accept(String valid) {
    int c = next();
    if (c != END && valid.indexOf(c) >= 0) {
      return true;
    }
    rewind();
    return false;
  }

  private Token emit(Kind kind) {
    Token token = new Token(kind, input.substring(start, pos), column, cols);
    start = pos;
    column = cols;
    return token;
  }

  private int next() {
    if (pos >= input.length()) {
      width = 0;
      return END;
    }
    int c = input.codePointAt(pos);
    width = Character.charCount(c);
    pos += width;
    cols++;
    return c;
  }

  /** Steps back over the last code point read; at the end of input there is none to step over. */
  private void rewind() {
    pos -= width;
    if (width > 0) {
      cols--;
    }
  }
}
