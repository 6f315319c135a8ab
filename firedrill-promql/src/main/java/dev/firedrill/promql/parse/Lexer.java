package dev.firedrill.promql.parse;

import dev.firedrill.format.GoQuote;
import dev.firedrill.promql.model.PromqlException;
import java.util.Locale;
import java.util.Map;

/**
 * PromQL's lexer, Prometheus's state machine: tokens come one at a time, so a lexing error surfaces
 * exactly when the parser reaches it. Comments are dropped here.
 */
final class Lexer {

  private static final int EOF = -1;
  private static final String DIGITS = "0123456789";
  private static final String HEX_DIGITS = "0123456789abcdefABCDEF";

  private static final Map<String, TokenType> KEYWORDS =
      Map.ofEntries(
          Map.entry("and", TokenType.LAND),
          Map.entry("or", TokenType.LOR),
          Map.entry("unless", TokenType.LUNLESS),
          Map.entry("atan2", TokenType.ATAN2),
          Map.entry("sum", TokenType.SUM),
          Map.entry("avg", TokenType.AVG),
          Map.entry("count", TokenType.COUNT),
          Map.entry("min", TokenType.MIN),
          Map.entry("max", TokenType.MAX),
          Map.entry("group", TokenType.GROUP),
          Map.entry("stddev", TokenType.STDDEV),
          Map.entry("stdvar", TokenType.STDVAR),
          Map.entry("topk", TokenType.TOPK),
          Map.entry("bottomk", TokenType.BOTTOMK),
          Map.entry("count_values", TokenType.COUNT_VALUES),
          Map.entry("quantile", TokenType.QUANTILE),
          Map.entry("offset", TokenType.OFFSET),
          Map.entry("by", TokenType.BY),
          Map.entry("without", TokenType.WITHOUT),
          Map.entry("on", TokenType.ON),
          Map.entry("ignoring", TokenType.IGNORING),
          Map.entry("group_left", TokenType.GROUP_LEFT),
          Map.entry("group_right", TokenType.GROUP_RIGHT),
          Map.entry("bool", TokenType.BOOL),
          Map.entry("start", TokenType.START),
          Map.entry("end", TokenType.END),
          Map.entry("inf", TokenType.NUMBER),
          Map.entry("nan", TokenType.NUMBER));

  private final String input;
  private int pos;
  private int start;
  private int width;
  private int parenDepth;
  private boolean braceOpen;
  private boolean bracketOpen;
  private boolean gotColon;
  // Right after '[' Prometheus lexes a duration, not a statement.
  private boolean durationNext;

  // Prometheus 3 lexes a whole expression inside brackets (duration arithmetic, step(), min(...)).
  private final boolean prometheus3;

  Lexer(String input, boolean prometheus3) {
    this.input = input;
    this.prometheus3 = prometheus3;
  }

  Token next() {
    while (true) {
      Token token;
      if (durationNext) {
        durationNext = false;
        token = lexDuration();
      } else if (braceOpen) {
        token = lexInsideBraces();
      } else {
        token = lexStatement();
      }
      if (token != null) {
        return token;
      }
    }
  }

  /** One token, or null after skipping space or a comment. */
  private Token lexStatement() {
    if (input.startsWith("#", pos)) {
      skipComment();
      return null;
    }
    int r = read();
    if (r == EOF) {
      if (parenDepth != 0) {
        throw error("unclosed left parenthesis");
      } else if (bracketOpen) {
        throw error("unclosed left bracket");
      }
      return emit(TokenType.EOF);
    }
    switch (r) {
      case ',':
        return emit(TokenType.COMMA);
      case '*':
        return emit(TokenType.MUL);
      case '/':
        return emit(TokenType.DIV);
      case '%':
        return emit(TokenType.MOD);
      case '+':
        return emit(TokenType.ADD);
      case '-':
        return emit(TokenType.SUB);
      case '^':
        return emit(TokenType.POW);
      case '@':
        return emit(TokenType.AT);
      case '=':
        {
          int t = peek();
          if (t == '=') {
            read();
            return emit(TokenType.EQLC);
          } else if (t == '~') {
            throw error("unexpected character after '=': " + GoText.quoteRune(t));
          }
          return emit(TokenType.EQL);
        }
      case '!':
        {
          int t = read();
          if (t == '=') {
            return emit(TokenType.NEQ);
          }
          throw error("unexpected character after '!': " + GoText.quoteRune(t));
        }
      case '<':
        return emitWithOptionalEquals(TokenType.LSS, TokenType.LTE);
      case '>':
        return emitWithOptionalEquals(TokenType.GTR, TokenType.GTE);
      case '"', '\'':
        return lexString(r);
      case '`':
        return lexRawString();
      case '(':
        parenDepth++;
        return emit(TokenType.LEFT_PAREN);
      case ')':
        {
          Token token = emit(TokenType.RIGHT_PAREN);
          if (--parenDepth < 0) {
            // Prometheus reports this one after the parenthesis.
            throw error("unexpected right parenthesis ')'");
          }
          return token;
        }
      case '{':
        braceOpen = true;
        return emit(TokenType.LEFT_BRACE);
      case '[':
        {
          if (bracketOpen) {
            throw error("unexpected left bracket '['");
          }
          gotColon = false;
          Token token = emit(TokenType.LEFT_BRACKET);
          skipSpaces();
          bracketOpen = true;
          durationNext = !prometheus3;
          return token;
        }
      case ']':
        if (!bracketOpen) {
          throw error("unexpected right bracket ']'");
        }
        bracketOpen = false;
        return emit(TokenType.RIGHT_BRACKET);
      default:
        break;
    }
    if (isSpace(r)) {
      skipSpaces();
      return null;
    }
    if (isDigit(r) || (r == '.' && isDigit(peek()))) {
      backup();
      return lexNumberOrDuration();
    }
    if (prometheus3 && bracketOpen && isAlpha(r)) {
      while (isAlphaNumeric(peek())) {
        read();
      }
      TokenType keyword = KEYWORDS.get(input.substring(start, pos).toLowerCase(Locale.ROOT));
      return emit(keyword != null ? keyword : TokenType.IDENTIFIER);
    }
    if (isAlpha(r) || r == ':') {
      if (!bracketOpen) {
        backup();
        return lexKeywordOrIdentifier();
      }
      // Inside brackets Prometheus takes any letter for the subquery colon.
      if (gotColon) {
        throw error("unexpected colon " + GoText.quoteRune(r));
      }
      gotColon = true;
      return emit(TokenType.COLON);
    }
    throw error("unexpected character: " + GoText.quoteRune(r));
  }

  private Token lexInsideBraces() {
    if (input.startsWith("#", pos)) {
      skipComment();
      return null;
    }
    int r = read();
    if (r == EOF) {
      throw error("unexpected end of input inside braces");
    }
    if (isSpace(r)) {
      skipSpaces();
      return null;
    }
    if (isAlpha(r)) {
      while (isAlphaNumeric(read())) {
        // absorb
      }
      backup();
      return emit(TokenType.IDENTIFIER);
    }
    switch (r) {
      case ',':
        return emit(TokenType.COMMA);
      case '"', '\'':
        return lexString(r);
      case '`':
        return lexRawString();
      case '=':
        if (read() == '~') {
          return emit(TokenType.EQL_REGEX);
        }
        backup();
        return emit(TokenType.EQL);
      case '!':
        {
          int t = read();
          if (t == '~') {
            return emit(TokenType.NEQ_REGEX);
          } else if (t == '=') {
            return emit(TokenType.NEQ);
          }
          throw error("unexpected character after '!' inside braces: " + GoText.quoteRune(t));
        }
      case '{':
        throw error("unexpected left brace '{'");
      case '}':
        braceOpen = false;
        return emit(TokenType.RIGHT_BRACE);
      default:
        throw error("unexpected character inside braces: " + GoText.quoteRune(r));
    }
  }

  private Token lexString(int quote) {
    while (true) {
      int r = read();
      if (r == '\\') {
        lexEscape(quote);
      } else if (r == 0xFFFD) {
        // Go decodes invalid UTF-8 as U+FFFD and refuses it; a literal U+FFFD looks the same to it.
        throw error("invalid UTF-8 rune");
      } else if (r == EOF || r == '\n') {
        throw error("unterminated quoted string");
      } else if (r == quote) {
        return emit(TokenType.STRING);
      }
    }
  }

  private void lexEscape(int quote) {
    int ch = read();
    int digits;
    int base;
    int max;
    switch (ch) {
      case 'a', 'b', 'f', 'n', 'r', 't', 'v', '\\' -> {
        return;
      }
      case '0', '1', '2', '3', '4', '5', '6', '7' -> {
        digits = 3;
        base = 8;
        max = 255;
      }
      case 'x' -> {
        ch = read();
        digits = 2;
        base = 16;
        max = 255;
      }
      case 'u' -> {
        ch = read();
        digits = 4;
        base = 16;
        max = Character.MAX_CODE_POINT;
      }
      case 'U' -> {
        ch = read();
        digits = 8;
        base = 16;
        max = Character.MAX_CODE_POINT;
      }
      case EOF -> throw error("escape sequence not terminated");
      default -> {
        if (ch == quote) {
          return;
        }
        throw error("unknown escape sequence " + GoText.describeRune(ch));
      }
    }
    long value = 0;
    while (digits > 0) {
      int d = digitValue(ch);
      if (d >= base) {
        if (ch == EOF) {
          throw error("escape sequence not terminated");
        }
        throw error("illegal character " + GoText.describeRune(ch) + " in escape sequence");
      }
      value = value * base + d;
      if (--digits > 0) {
        ch = read();
      }
    }
    if (value > max || (value >= 0xD800 && value < 0xE000)) {
      throw error("escape sequence is an invalid Unicode code point");
    }
  }

  private Token lexRawString() {
    while (true) {
      int r = read();
      if (r == 0xFFFD) {
        throw error("invalid UTF-8 rune");
      } else if (r == EOF) {
        throw error("unterminated raw string");
      } else if (r == '`') {
        return emit(TokenType.STRING);
      }
    }
  }

  private Token lexDuration() {
    if (scanNumber()) {
      throw error("missing unit character in duration");
    }
    if (!acceptRemainingDuration()) {
      throw error("bad duration syntax: " + GoQuote.of(input.substring(start, pos)));
    }
    backup();
    return emit(TokenType.DURATION);
  }

  private Token lexNumberOrDuration() {
    if (scanNumber()) {
      return emit(TokenType.NUMBER);
    }
    if (acceptRemainingDuration()) {
      backup();
      return emit(TokenType.DURATION);
    }
    throw error("bad number or duration syntax: " + GoQuote.of(input.substring(start, pos)));
  }

  // Units as Prometheus's lexer accepts them; a wrong order such as 5m1h is the duration parser's
  // to refuse.
  private boolean acceptRemainingDuration() {
    if (!accept("smhdwy")) {
      return false;
    }
    accept("s");
    while (accept(DIGITS)) {
      while (accept(DIGITS)) {
        // absorb
      }
      if (!accept("smhdw")) {
        return false;
      }
      accept("s");
    }
    return !isAlphaNumeric(read());
  }

  /** Whether a number ends here; the text need not be a valid number, the parser checks it. */
  private boolean scanNumber() {
    String digits = DIGITS;
    if (accept("0") && accept("xX")) {
      digits = HEX_DIGITS;
    }
    acceptRun(digits);
    if (accept(".")) {
      acceptRun(digits);
    }
    if (accept("eE")) {
      accept("+-");
      acceptRun(DIGITS);
    }
    return !isAlphaNumeric(peek());
  }

  private Token lexKeywordOrIdentifier() {
    int r;
    do {
      r = read();
    } while (isAlphaNumeric(r) || r == ':');
    backup();
    String word = input.substring(start, pos);
    TokenType keyword = KEYWORDS.get(word.toLowerCase(Locale.ROOT));
    if (keyword != null) {
      return emit(keyword);
    }
    return emit(word.indexOf(':') < 0 ? TokenType.IDENTIFIER : TokenType.METRIC_IDENTIFIER);
  }

  private void skipComment() {
    pos++;
    int r;
    do {
      r = read();
    } while (r != '\r' && r != '\n' && r != EOF);
    backup();
    start = pos;
  }

  private void skipSpaces() {
    while (isSpace(peek())) {
      read();
    }
    start = pos;
  }

  private Token emitWithOptionalEquals(TokenType plain, TokenType withEquals) {
    if (peek() == '=') {
      read();
      return emit(withEquals);
    }
    return emit(plain);
  }

  private Token emit(TokenType type) {
    Token token = new Token(type, start, input.substring(start, pos));
    start = pos;
    return token;
  }

  private PromqlException error(String message) {
    return ParseErrors.at(input, start, message);
  }

  private int read() {
    if (pos >= input.length()) {
      width = 0;
      return EOF;
    }
    int r = input.codePointAt(pos);
    width = Character.charCount(r);
    pos += width;
    return r;
  }

  private int peek() {
    int r = read();
    backup();
    return r;
  }

  private void backup() {
    pos -= width;
  }

  private boolean accept(String valid) {
    int r = read();
    if (r != EOF && valid.indexOf(r) >= 0) {
      return true;
    }
    backup();
    return false;
  }

  private void acceptRun(String valid) {
    while (accept(valid)) {
      // absorb
    }
  }

  /** The value of a hexadecimal digit, 16 for anything else. */
  private static int digitValue(int ch) {
    if (ch >= '0' && ch <= '9') {
      return ch - '0';
    } else if (ch >= 'a' && ch <= 'f') {
      return ch - 'a' + 10;
    } else if (ch >= 'A' && ch <= 'F') {
      return ch - 'A' + 10;
    }
    return 16;
  }

  private static boolean isSpace(int r) {
    return r == ' ' || r == '\t' || r == '\n' || r == '\r';
  }

  private static boolean isDigit(int r) {
    return r >= '0' && r <= '9';
  }

  static boolean isAlpha(int r) {
    return r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z');
  }

  static boolean isAlphaNumeric(int r) {
    return isAlpha(r) || isDigit(r);
  }
}
