package dev.firedrill.alerting.routes;

import dev.firedrill.alerting.routes.Utf8Lexer.Failure;
import dev.firedrill.alerting.routes.Utf8Lexer.Kind;
import dev.firedrill.alerting.routes.Utf8Lexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Alertmanager's UTF-8 matcher grammar (0.27 and later, {@code matcher/parse}): optional braces
 * around comma-separated matchers, a trailing comma allowed; a label name or value is either
 * unquoted text without spaces or reserved characters ({@code service.name}, {@code crit.*}) or a
 * Go string literal ({@code "service name"}, {@code "a\tb"}, {@code "\u00e9"}). Every refusal
 * carries Alertmanager's own message, positions included.
 */
final class Utf8Matchers {

  private static final String NO_OPERATOR = "expected an operator such as '=', '!=', '=~' or '!~'";

  private enum Step {
    MATCHER,
    END_OF_MATCHER,
    COMMA,
    CLOSE_BRACE,
    END,
    DONE
  }

  private final Utf8Lexer lexer;
  private final List<Matcher> matchers = new ArrayList<>();
  private boolean openBrace;

  private Utf8Matchers(String input) {
    this.lexer = new Utf8Lexer(input);
  }

  /**
   * Zero or more matchers; IllegalArgumentException with Alertmanager's message when the input is
   * not the grammar.
   */
  static List<Matcher> parseList(String input) {
    try {
      return new Utf8Matchers(input).parse();
    } catch (Failure e) {
      throw new IllegalArgumentException(e.getMessage());
    }
  }

  /** Exactly one matcher. */
  static Matcher parseOne(String input) {
    List<Matcher> matchers = parseList(input);
    if (matchers.isEmpty()) {
      throw new IllegalArgumentException("no matchers");
    }
    if (matchers.size() > 1) {
      throw new IllegalArgumentException("expected 1 matcher, found " + matchers.size());
    }
    return matchers.get(0);
  }

  private List<Matcher> parse() {
    Step step = openBrace();
    while (step != Step.DONE) {
      step =
          switch (step) {
            case MATCHER -> matcher();
            case END_OF_MATCHER -> endOfMatcher();
            case COMMA -> comma();
            case CLOSE_BRACE -> closeBrace();
            case END -> end();
            case DONE -> Step.DONE;
          };
    }
    return matchers;
  }

  /**
   * An optional open brace; then a close brace or the end, or else a matcher. Lexer failures pass
   * as they are.
   */
  private Step openBrace() {
    Token next = lexer.peek();
    if (next.kind() == Kind.EOF) {
      return Step.END;
    }
    openBrace = next.kind() == Kind.OPEN_BRACE;
    if (openBrace) {
      lexer.scan();
    }
    next = lexer.peek();
    return next.kind() == Kind.EOF || next.kind() == Kind.CLOSE_BRACE
        ? Step.CLOSE_BRACE
        : Step.MATCHER;
  }

  private Step matcher() {
    Token name = expect("expected label name", Kind.QUOTED, Kind.UNQUOTED);
    String label = text(name);
    Token operator =
        expect(NO_OPERATOR, Kind.EQUALS, Kind.NOT_EQUALS, Kind.MATCHES, Kind.NOT_MATCHES);
    MatchType type =
        switch (operator.kind()) {
          case EQUALS -> MatchType.EQUAL;
          case NOT_EQUALS -> MatchType.NOT_EQUAL;
          case MATCHES -> MatchType.REGEXP;
          default -> MatchType.NOT_REGEXP;
        };
    String value = text(expect("expected label value", Kind.UNQUOTED, Kind.QUOTED));
    try {
      matchers.add(Matcher.of(label, type, value));
    } catch (IllegalArgumentException e) {
      throw new Failure("failed to create matcher: " + e.getMessage(), false);
    }
    return Step.END_OF_MATCHER;
  }

  private Step endOfMatcher() {
    Token next;
    try {
      next = peek(Kind.COMMA, Kind.CLOSE_BRACE);
    } catch (Failure e) {
      if (e.endOfInput) {
        return Step.CLOSE_BRACE;
      }
      throw new Failure(e.getMessage() + ": expected a comma or close brace", false);
    }
    return next.kind() == Kind.COMMA ? Step.COMMA : Step.CLOSE_BRACE;
  }

  private Step comma() {
    lexer.scan();
    Token next;
    try {
      next = peek(Kind.CLOSE_BRACE, Kind.UNQUOTED, Kind.QUOTED);
    } catch (Failure e) {
      if (e.endOfInput) {
        return Step.CLOSE_BRACE;
      }
      throw new Failure(e.getMessage() + ": expected a matcher or close brace after comma", false);
    }
    return next.kind() == Kind.CLOSE_BRACE ? Step.CLOSE_BRACE : Step.MATCHER;
  }

  /** A close brace exactly when there was an open one. */
  private Step closeBrace() {
    if (openBrace) {
      try {
        peek(Kind.CLOSE_BRACE);
        lexer.scan();
      } catch (Failure e) {
        throw new Failure(
            "0:" + lexer.columns() + ": " + e.getMessage() + ": expected close brace", false);
      }
    } else if (nextIsCloseBrace()) {
      lexer.scan();
      throw new Failure("0:" + lexer.columns() + ": }: expected opening brace", false);
    }
    return Step.END;
  }

  /** A lexer failure here is left for {@link #end} to report, as Alertmanager leaves it. */
  private boolean nextIsCloseBrace() {
    try {
      return lexer.peek().kind() == Kind.CLOSE_BRACE;
    } catch (Failure e) {
      return false;
    }
  }

  private Step end() {
    Token next;
    try {
      next = lexer.scan();
    } catch (Failure e) {
      throw new Failure(e.getMessage() + ": expected end of input", false);
    }
    if (next.kind() != Kind.EOF) {
      throw new Failure(
          next.columnStart()
              + ":"
              + next.columnEnd()
              + ": "
              + next.value()
              + ": expected end of input",
          false);
    }
    return Step.DONE;
  }

  /**
   * The next token, consumed, when it is one of {@code kinds}; else the failure with {@code
   * expected} after it.
   */
  private Token expect(String expected, Kind... kinds) {
    try {
      Token token = peek(kinds);
      lexer.scan();
      return token;
    } catch (Failure e) {
      throw new Failure(e.getMessage() + ": " + expected, false);
    }
  }

  /**
   * The next token, not consumed: the end of input is its own failure, another kind "unexpected".
   */
  private Token peek(Kind... kinds) {
    Token next = lexer.peek();
    if (next.kind() == Kind.EOF) {
      throw new Failure("end of input", true);
    }
    if (!Set.of(kinds).contains(next.kind())) {
      throw new Failure(
          next.columnStart() + ":" + next.columnEnd() + ": unexpected " + next.value(), false);
    }
    return next;
  }

  /**
   * A name or value: unquoted as it is, quoted as a Go string literal that must make valid UTF-8.
   */
  private static String text(Token token) {
    if (token.kind() != Kind.QUOTED) {
      return token.value();
    }
    String text = GoText.unquote(token.value());
    if (text == null) {
      throw new Failure(
          token.columnStart() + ":" + token.columnEnd() + ": " + token.value() + ": invalid input",
          false);
    }
    return text;
  }
}
