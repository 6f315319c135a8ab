package dev.firedrill.embedded.rules.template;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;

/**
 * Go's {@code text/template} lexer and parser for the subset Prometheus's rules use: text, actions
 * with pipelines, variables, fields, constants, parentheses, {@code if/else/end}, comments and the
 * {@code {{- -}}} trim markers. Errors read as Go writes them: {@code template: NAME:LINE:
 * MESSAGE}.
 */
final class Parser {

  private enum Kind {
    TEXT,
    LEFT,
    RIGHT,
    SPACE,
    IDENT,
    KEYWORD,
    FIELD,
    DOT,
    VARIABLE,
    STRING,
    NUMBER,
    BOOL,
    NIL,
    PIPE,
    LPAREN,
    RPAREN,
    DECLARE,
    ASSIGN,
    EOF
  }

  private record Token(Kind kind, int pos, String text, Object value) {
    String describe() {
      return switch (kind) {
        case EOF -> "EOF";
        case KEYWORD -> "<" + text + ">";
        default -> text.length() > 10 ? "\"" + text.substring(0, 10) + "\"..." : "\"" + text + "\"";
      };
    }
  }

  private static final Set<String> KEYWORDS =
      Set.of(
          "if", "else", "end", "range", "with", "define", "template", "block", "break", "continue");

  private final String name;
  private final String text;
  private final Set<String> functions;
  private final List<Token> tokens = new ArrayList<>();
  private int next;
  private final Deque<List<String>> scopes = new ArrayDeque<>();

  private Parser(String name, String text, Set<String> functions) {
    this.name = name;
    this.text = text;
    this.functions = functions;
  }

  static List<Node> parse(String name, String text, Set<String> functions) {
    Parser parser = new Parser(name, text, functions);
    parser.lex();
    parser.scopes.push(new ArrayList<>(List.of("$")));
    List<Node> nodes = new ArrayList<>();
    while (parser.peek().kind != Kind.EOF) {
      Object node = parser.textOrAction();
      if (node instanceof Keyword keyword) {
        throw parser.error(keyword.pos, "unexpected {{" + keyword.word + "}}");
      }
      nodes.add((Node) node);
    }
    return nodes;
  }

  // ---- lexing --------------------------------------------------------------------------------

  private void lex() {
    int i = 0;
    while (i < text.length()) {
      int open = text.indexOf("{{", i);
      int end = open < 0 ? text.length() : open;
      boolean trimLeft =
          open >= 0
              && text.startsWith("-", open + 2)
              && open + 3 < text.length()
              && isSpace(text.charAt(open + 3));
      String chunk = text.substring(i, end);
      if (trimLeft) {
        chunk = chunk.stripTrailing();
      }
      if (!chunk.isEmpty()) {
        tokens.add(new Token(Kind.TEXT, i, chunk, chunk));
      }
      if (open < 0) {
        break;
      }
      i = lexAction(open, trimLeft);
    }
    tokens.add(new Token(Kind.EOF, text.length(), "", null));
  }

  /** Lexes one action from its {@code {{}; returns where the text after it starts. */
  private int lexAction(int open, boolean trimLeft) {
    int i = open + 2 + (trimLeft ? 2 : 0);
    int afterSpace = i;
    while (afterSpace < text.length() && isSpace(text.charAt(afterSpace))) {
      afterSpace++;
    }
    if (text.startsWith("/*", trimLeft ? afterSpace : i)) {
      int close = text.indexOf("*/", (trimLeft ? afterSpace : i) + 2);
      if (close < 0) {
        throw error(open, "unclosed comment");
      }
      int j = close + 2;
      boolean trimRight = false;
      if (text.startsWith(" -}}", j)
          || text.startsWith("\t-}}", j)
          || text.startsWith("\n-}}", j)) {
        trimRight = true;
        j += 4;
      } else if (text.startsWith("}}", j)) {
        j += 2;
      } else {
        throw error(open, "comment ends before closing delimiter");
      }
      return trimRight ? skipSpace(j) : j;
    }
    tokens.add(new Token(Kind.LEFT, open, "{{", null));
    while (true) {
      if (i >= text.length()) {
        throw error(open, "unclosed action");
      }
      char c = text.charAt(i);
      if (isSpace(c)) {
        int start = i;
        while (i < text.length() && isSpace(text.charAt(i))) {
          i++;
        }
        if (text.startsWith("-}}", i)) {
          tokens.add(new Token(Kind.RIGHT, i, "}}", null));
          return skipSpace(i + 3);
        }
        tokens.add(new Token(Kind.SPACE, start, " ", null));
        continue;
      }
      if (text.startsWith("}}", i)) {
        tokens.add(new Token(Kind.RIGHT, i, "}}", null));
        return i + 2;
      }
      int start = i;
      if (c == '|') {
        tokens.add(new Token(Kind.PIPE, i++, "|", null));
      } else if (c == '(') {
        tokens.add(new Token(Kind.LPAREN, i++, "(", null));
      } else if (c == ')') {
        tokens.add(new Token(Kind.RPAREN, i++, ")", null));
      } else if (c == ':' && text.startsWith(":=", i)) {
        tokens.add(new Token(Kind.DECLARE, i, ":=", null));
        i += 2;
      } else if (c == '=') {
        tokens.add(new Token(Kind.ASSIGN, i++, "=", null));
      } else if (c == '"' || c == '`') {
        i = lexString(i);
      } else if (c == '$') {
        i = word(i + 1);
        tokens.add(new Token(Kind.VARIABLE, start, text.substring(start, i), null));
      } else if (c == '.' && i + 1 < text.length() && isWordChar(text.charAt(i + 1))) {
        if (Character.isDigit(text.charAt(i + 1))) {
          i = lexNumber(i);
        } else {
          i = word(i + 1);
          tokens.add(
              new Token(Kind.FIELD, start, text.substring(start, i), text.substring(start + 1, i)));
        }
      } else if (c == '.') {
        tokens.add(new Token(Kind.DOT, i++, ".", null));
      } else if (Character.isDigit(c)
          || (c == '-' || c == '+')
              && i + 1 < text.length()
              && (Character.isDigit(text.charAt(i + 1)) || text.charAt(i + 1) == '.')) {
        i = lexNumber(i);
      } else if (isWordChar(c)) {
        i = word(i);
        String word = text.substring(start, i);
        Kind kind =
            KEYWORDS.contains(word)
                ? Kind.KEYWORD
                : word.equals("true") || word.equals("false")
                    ? Kind.BOOL
                    : word.equals("nil") ? Kind.NIL : Kind.IDENT;
        tokens.add(new Token(kind, start, word, kind == Kind.BOOL ? Boolean.valueOf(word) : null));
      } else {
        throw error(i, "unexpected \"" + c + "\" in command");
      }
    }
  }

  private int lexString(int start) {
    char quote = text.charAt(start);
    StringBuilder value = new StringBuilder();
    int i = start + 1;
    while (true) {
      if (i >= text.length() || quote == '"' && text.charAt(i) == '\n') {
        throw error(
            start, quote == '"' ? "unterminated quoted string" : "unterminated raw quoted string");
      }
      char c = text.charAt(i);
      if (c == quote) {
        break;
      }
      if (c == '\\' && quote == '"') {
        i++;
        if (i >= text.length()) {
          throw error(start, "unterminated quoted string");
        }
        char e = text.charAt(i);
        switch (e) {
          case 'n' -> value.append('\n');
          case 't' -> value.append('\t');
          case 'r' -> value.append('\r');
          case '\\', '"', '\'' -> value.append(e);
          case 'u' -> {
            if (i + 4 >= text.length()) {
              throw error(start, "unterminated quoted string");
            }
            value.append((char) Integer.parseInt(text.substring(i + 1, i + 5), 16));
            i += 4;
          }
          default -> throw error(start, "invalid syntax");
        }
      } else {
        value.append(c);
      }
      i++;
    }
    tokens.add(new Token(Kind.STRING, start, text.substring(start, i + 1), value.toString()));
    return i + 1;
  }

  private int lexNumber(int start) {
    int i = start;
    if (text.charAt(i) == '+' || text.charAt(i) == '-') {
      i++;
    }
    while (i < text.length()
        && (isWordChar(text.charAt(i))
            || text.charAt(i) == '.'
            || (text.charAt(i) == '+' || text.charAt(i) == '-')
                && "eE".indexOf(text.charAt(i - 1)) >= 0)) {
      i++;
    }
    String number = text.substring(start, i);
    Object value;
    try {
      if (number.matches("[+-]?\\d+")) {
        value = Long.parseLong(number);
      } else if (number.matches("[+-]?(\\d++(?:\\.\\d*+)?|\\.\\d++)([eE][+-]?\\d++)?")) {
        value = Double.parseDouble(number);
      } else {
        throw new NumberFormatException();
      }
    } catch (NumberFormatException e) {
      throw error(start, "bad number syntax: \"" + number + "\"");
    }
    tokens.add(new Token(Kind.NUMBER, start, number, value));
    return i;
  }

  private int word(int i) {
    while (i < text.length() && isWordChar(text.charAt(i))) {
      i++;
    }
    return i;
  }

  private int skipSpace(int i) {
    while (i < text.length() && isSpace(text.charAt(i))) {
      i++;
    }
    return i;
  }

  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
  }

  private static boolean isWordChar(char c) {
    return c == '_' || Character.isLetterOrDigit(c);
  }

  // ---- parsing -------------------------------------------------------------------------------

  /**
   * A keyword action that ends a list: {@code {{else}}}, {@code {{end}}}, or {@code {{else if
   * ...}}}.
   */
  private record Keyword(int pos, String word, Node.Pipeline elseIf) {}

  /** A node, or the {@link Keyword} that ends a list. */
  private Object textOrAction() {
    Token token = nextToken();
    if (token.kind == Kind.TEXT) {
      return new Node.Text(token.pos, (String) token.value);
    }
    Token first = nextNonSpace();
    if (first.kind == Kind.KEYWORD) {
      switch (first.text) {
        case "if":
          return ifNode(first);
        case "end":
          expectRight("end");
          return new Keyword(first.pos, "end", null);
        case "else":
          Token after = nextNonSpace();
          if (after.kind == Kind.KEYWORD && after.text.equals("if")) {
            return new Keyword(first.pos, "else", pipeline("if"));
          }
          backup();
          expectRight("else");
          return new Keyword(first.pos, "else", null);
        default:
          throw error(
              first.pos,
              "{{" + first.text + "}} is not supported in the embedded Prometheus's templates");
      }
    }
    backup();
    return new Node.Action(first.pos, pipeline("command"));
  }

  private Node ifNode(Token keyword) {
    scopes.push(new ArrayList<>(scopes.peek()));
    Node.Pipeline condition = pipeline("if");
    return ifRest(keyword.pos, condition);
  }

  /**
   * The lists after an if's condition, through its {@code {{end}}}; the condition's scope is open.
   */
  private Node ifRest(int pos, Node.Pipeline condition) {
    List<Node> then = new ArrayList<>();
    Keyword stop = list(then);
    scopes.pop();
    List<Node> otherwise = List.of();
    if (stop.word.equals("else")) {
      scopes.push(new ArrayList<>(scopes.peek()));
      if (stop.elseIf != null) {
        otherwise = List.of(ifRest(stop.pos, stop.elseIf));
      } else {
        List<Node> elseList = new ArrayList<>();
        Keyword end = list(elseList);
        scopes.pop();
        if (!end.word.equals("end")) {
          throw error(end.pos, "expected end; found {{else}}");
        }
        otherwise = List.copyOf(elseList);
      }
    }
    return new Node.If(pos, condition, List.copyOf(then), otherwise);
  }

  /** Nodes up to the {@code {{else}}} or {@code {{end}}} that ends them. */
  private Keyword list(List<Node> into) {
    while (true) {
      if (peek().kind == Kind.EOF) {
        throw error(peek().pos, "unexpected EOF");
      }
      Object node = textOrAction();
      if (node instanceof Keyword keyword) {
        return keyword;
      }
      into.add((Node) node);
    }
  }

  private Node.Pipeline pipeline(String context) {
    Token first = peekNonSpace();
    String variable = null;
    boolean assign = false;
    if (first.kind == Kind.VARIABLE) {
      int mark = next;
      nextNonSpace();
      Token op = nextNonSpace();
      if (op.kind == Kind.DECLARE || op.kind == Kind.ASSIGN) {
        variable = first.text;
        assign = op.kind == Kind.ASSIGN;
        if (assign && !isDefined(variable)) {
          throw error(first.pos, "undefined variable \"" + variable + "\"");
        }
      } else {
        next = mark;
      }
    }
    List<Node.Command> commands = new ArrayList<>();
    while (true) {
      Token token = peekNonSpace();
      if (token.kind == Kind.RIGHT || token.kind == Kind.RPAREN) {
        if (token.kind == Kind.RIGHT) {
          nextNonSpace();
        }
        if (commands.isEmpty()) {
          throw error(token.pos, "missing value for " + context);
        }
        break;
      }
      commands.add(command());
    }
    if (variable != null && !assign) {
      scopes.peek().add(variable);
    }
    return new Node.Pipeline(first.pos, variable, assign, List.copyOf(commands));
  }

  private Node.Command command() {
    int pos = peekNonSpace().pos;
    List<Node.Arg> args = new ArrayList<>();
    while (true) {
      Token token = peekNonSpace();
      if (token.kind == Kind.RIGHT || token.kind == Kind.RPAREN) {
        break;
      }
      if (token.kind == Kind.PIPE) {
        nextNonSpace();
        if (args.isEmpty()) {
          throw error(token.pos, "missing value for command");
        }
        return new Node.Command(pos, List.copyOf(args));
      }
      args.add(operand());
      Token after = peek();
      if (after.kind != Kind.SPACE
          && after.kind != Kind.RIGHT
          && after.kind != Kind.RPAREN
          && after.kind != Kind.PIPE) {
        throw error(after.pos, "unexpected " + after.describe() + " in operand");
      }
    }
    if (args.isEmpty()) {
      throw error(pos, "missing value for command");
    }
    return new Node.Command(pos, List.copyOf(args));
  }

  private Node.Arg operand() {
    Token token = nextNonSpace();
    Node.Arg term =
        switch (token.kind) {
          case IDENT -> {
            if (!functions.contains(token.text)) {
              throw error(token.pos, "function \"" + token.text + "\" not defined");
            }
            yield new Node.Arg.Function(token.pos, token.text);
          }
          case DOT -> new Node.Arg.Field(token.pos, List.of());
          case FIELD -> new Node.Arg.Field(token.pos, List.of((String) token.value));
          case VARIABLE -> {
            if (!isDefined(token.text)) {
              throw error(token.pos, "undefined variable \"" + token.text + "\"");
            }
            yield new Node.Arg.Variable(token.pos, token.text, List.of());
          }
          case STRING, NUMBER, BOOL, NIL ->
              new Node.Arg.Constant(token.pos, token.value, token.text);
          case LPAREN -> {
            Node.Pipeline inner = pipeline("parenthesized pipeline");
            Token close = nextNonSpace();
            if (close.kind != Kind.RPAREN) {
              throw error(close.pos, "unclosed left paren");
            }
            yield new Node.Arg.Sub(token.pos, inner, List.of());
          }
          default -> throw error(token.pos, "unexpected " + token.describe() + " in operand");
        };
    List<String> fields = new ArrayList<>();
    while (peek().kind == Kind.FIELD) {
      fields.add((String) nextToken().value);
    }
    if (fields.isEmpty()) {
      return term;
    }
    if (term instanceof Node.Arg.Field f) {
      return new Node.Arg.Field(f.pos(), concat(f.fields(), fields));
    } else if (term instanceof Node.Arg.Variable v) {
      return new Node.Arg.Variable(v.pos(), v.name(), fields);
    } else if (term instanceof Node.Arg.Sub s) {
      return new Node.Arg.Sub(s.pos(), s.pipeline(), fields);
    }
    throw error(term.pos(), "unexpected . after term \"" + term + "\"");
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return List.copyOf(all);
  }

  private boolean isDefined(String variable) {
    return scopes.peek().contains(variable);
  }

  private void expectRight(String context) {
    Token token = nextNonSpace();
    if (token.kind != Kind.RIGHT) {
      throw error(token.pos, "unexpected " + token.describe() + " in " + context);
    }
  }

  private Token nextToken() {
    return tokens.get(next++);
  }

  private Token peek() {
    return tokens.get(next);
  }

  private void backup() {
    next--;
  }

  private Token nextNonSpace() {
    Token token;
    do {
      token = nextToken();
    } while (token.kind == Kind.SPACE);
    return token;
  }

  private Token peekNonSpace() {
    Token token = nextNonSpace();
    backup();
    return token;
  }

  private TemplateException error(int pos, String message) {
    int line =
        1
            + (int)
                text.substring(0, Math.min(pos, text.length()))
                    .chars()
                    .filter(c -> c == '\n')
                    .count();
    return new TemplateException("template: " + name + ":" + line + ": " + message);
  }
}
