package dev.firedrill.promql.parse;

import dev.firedrill.format.GoQuote;
import dev.firedrill.promql.ast.AggregateOp;
import dev.firedrill.promql.ast.BinaryOp;
import dev.firedrill.promql.ast.DurationExpr;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.ast.Expr.Aggregate;
import dev.firedrill.promql.ast.Expr.At;
import dev.firedrill.promql.ast.Expr.Binary;
import dev.firedrill.promql.ast.Expr.Call;
import dev.firedrill.promql.ast.Expr.MatrixSelector;
import dev.firedrill.promql.ast.Expr.NumberLiteral;
import dev.firedrill.promql.ast.Expr.Paren;
import dev.firedrill.promql.ast.Expr.RangeMode;
import dev.firedrill.promql.ast.Expr.StringLiteral;
import dev.firedrill.promql.ast.Expr.Subquery;
import dev.firedrill.promql.ast.Expr.Unary;
import dev.firedrill.promql.ast.Expr.VectorMatching;
import dev.firedrill.promql.ast.Expr.VectorMatching.Cardinality;
import dev.firedrill.promql.ast.Expr.VectorSelector;
import dev.firedrill.promql.ast.Function;
import dev.firedrill.promql.ast.Functions;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.time.Durations;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A recursive-descent parser for Prometheus v2.42's PromQL grammar. It reports what Prometheus's
 * yacc parser reports: the first error, worded and placed the same, including the context an
 * unexpected token is reported in. With {@link PromqlParser.Syntax#PROMETHEUS_3} it also reads
 * Prometheus 3's additions (see there); their errors use Prometheus 3's wording where it has one.
 */
final class Parser {

  private static final Map<TokenType, BinaryOp> BINARY_OPS =
      Map.ofEntries(
          Map.entry(TokenType.LOR, BinaryOp.OR), Map.entry(TokenType.LAND, BinaryOp.AND),
          Map.entry(TokenType.LUNLESS, BinaryOp.UNLESS), Map.entry(TokenType.EQLC, BinaryOp.EQL),
          Map.entry(TokenType.NEQ, BinaryOp.NEQ), Map.entry(TokenType.LTE, BinaryOp.LTE),
          Map.entry(TokenType.LSS, BinaryOp.LSS), Map.entry(TokenType.GTE, BinaryOp.GTE),
          Map.entry(TokenType.GTR, BinaryOp.GTR), Map.entry(TokenType.ADD, BinaryOp.ADD),
          Map.entry(TokenType.SUB, BinaryOp.SUB), Map.entry(TokenType.MUL, BinaryOp.MUL),
          Map.entry(TokenType.DIV, BinaryOp.DIV), Map.entry(TokenType.MOD, BinaryOp.MOD),
          Map.entry(TokenType.ATAN2, BinaryOp.ATAN2), Map.entry(TokenType.POW, BinaryOp.POW));

  private static final Map<TokenType, AggregateOp> AGGREGATE_OPS =
      Map.ofEntries(
          Map.entry(TokenType.SUM, AggregateOp.SUM),
          Map.entry(TokenType.AVG, AggregateOp.AVG),
          Map.entry(TokenType.COUNT, AggregateOp.COUNT),
          Map.entry(TokenType.MIN, AggregateOp.MIN),
          Map.entry(TokenType.MAX, AggregateOp.MAX),
          Map.entry(TokenType.GROUP, AggregateOp.GROUP),
          Map.entry(TokenType.STDDEV, AggregateOp.STDDEV),
          Map.entry(TokenType.STDVAR, AggregateOp.STDVAR),
          Map.entry(TokenType.TOPK, AggregateOp.TOPK),
          Map.entry(TokenType.BOTTOMK, AggregateOp.BOTTOMK),
          Map.entry(TokenType.QUANTILE, AggregateOp.QUANTILE),
          Map.entry(TokenType.COUNT_VALUES, AggregateOp.COUNT_VALUES));

  /**
   * Prometheus 3's limit aggregations, words rather than keywords here so v2.42 keeps reading them
   * as names.
   */
  private static final Map<String, AggregateOp> LIMIT_OPS =
      Map.of("limitk", AggregateOp.LIMITK, "limit_ratio", AggregateOp.LIMIT_RATIO);

  private static final Map<TokenType, LabelMatcher.Type> MATCH_OPS =
      Map.of(
          TokenType.EQL,
          LabelMatcher.Type.EQUAL,
          TokenType.NEQ,
          LabelMatcher.Type.NOT_EQUAL,
          TokenType.EQL_REGEX,
          LabelMatcher.Type.REGEX,
          TokenType.NEQ_REGEX,
          LabelMatcher.Type.NOT_REGEX);

  /**
   * Keywords that still name a metric where an expression starts (Prometheus's metric_identifier).
   */
  private static final Set<TokenType> KEYWORD_METRIC_NAMES =
      EnumSet.of(
          TokenType.BY,
          TokenType.WITHOUT,
          TokenType.LAND,
          TokenType.LOR,
          TokenType.LUNLESS,
          TokenType.OFFSET,
          TokenType.START,
          TokenType.END);

  /** Tokens that may name a label in a grouping list (Prometheus's maybe_label). */
  private static final Set<TokenType> GROUPING_LABELS =
      EnumSet.of(
          TokenType.IDENTIFIER,
          TokenType.METRIC_IDENTIFIER,
          TokenType.AVG,
          TokenType.BOOL,
          TokenType.BOTTOMK,
          TokenType.BY,
          TokenType.COUNT,
          TokenType.COUNT_VALUES,
          TokenType.GROUP,
          TokenType.GROUP_LEFT,
          TokenType.GROUP_RIGHT,
          TokenType.IGNORING,
          TokenType.LAND,
          TokenType.LOR,
          TokenType.LUNLESS,
          TokenType.MAX,
          TokenType.MIN,
          TokenType.OFFSET,
          TokenType.ON,
          TokenType.QUANTILE,
          TokenType.STDDEV,
          TokenType.STDVAR,
          TokenType.SUM,
          TokenType.TOPK,
          TokenType.START,
          TokenType.END,
          TokenType.ATAN2);

  /**
   * Thrown past {@code maxDepth} levels of nesting, so the caller can parse again on a deeper
   * stack.
   */
  static final class TooDeep extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooDeep() {
      super("nested deeper than this thread's stack allows", null, false, false);
    }
  }

  private static final Pattern OCTAL = Pattern.compile("0[0-7]+");
  private static final Pattern DECIMAL = Pattern.compile("[0-9]+");

  private final String query;
  private final int maxDepth;
  private int depth;
  private final Lexer lexer;
  private final List<Token> lookahead = new ArrayList<>();
  private final SourcePositions positions = new SourcePositions();
  // Inside an aggregation, Prometheus reports an unexpected token "in aggregation".
  private int aggregationDepth;

  private final boolean prometheus3;

  Parser(String query, int maxDepth, PromqlParser.Syntax syntax) {
    this.query = query;
    this.maxDepth = maxDepth;
    this.prometheus3 = syntax == PromqlParser.Syntax.PROMETHEUS_3;
    this.lexer = new Lexer(query, prometheus3);
  }

  PromqlParser.Located parseLocated() {
    if (peek().type() == TokenType.EOF) {
      throw error(0, "no expression found in input");
    }
    Expr expr = parseExpr(0);
    Token end = peek();
    if (end.type() != TokenType.EOF) {
      throw unexpected(end);
    }
    Expr checked = new TypeChecker(query, positions, maxDepth).check(expr);
    return new PromqlParser.Located(query, checked, positions.starts());
  }

  /** Binary operations of at least {@code minPrecedence}; {@code ^} is right-associative. */
  private Expr parseExpr(int minPrecedence) {
    if (++depth > maxDepth) {
      throw new TooDeep();
    }
    Expr lhs = parseUnary();
    while (true) {
      Token operator = peek();
      BinaryOp op = BINARY_OPS.get(operator.type());
      if (op == null || op.precedence() < minPrecedence) {
        depth--;
        return lhs;
      }
      next();
      boolean returnBool = accept(TokenType.BOOL);
      VectorMatching matching = parseVectorMatching();
      Expr rhs = parseExpr(op.rightAssociative() ? op.precedence() : op.precedence() + 1);
      Binary binary =
          positions.start(new Binary(op, lhs, rhs, returnBool, matching), positions.start(lhs));
      positions.operator(binary, operator.pos());
      lhs = binary;
    }
  }

  /**
   * A sign binds like {@code *}, so {@code -1^2} is {@code -(1^2)}. A signed number literal is one
   * literal, as in Prometheus's grammar.
   */
  private Expr parseUnary() {
    Token sign = peek();
    if (sign.type() != TokenType.ADD && sign.type() != TokenType.SUB) {
      return parsePostfix(parsePrimary());
    }
    next();
    Expr operand = parseExpr(BinaryOp.POW.precedence());
    boolean negate = sign.type() == TokenType.SUB;
    Expr result =
        operand instanceof NumberLiteral n
            ? new NumberLiteral(negate ? -n.value() : n.value())
            : new Unary(negate, operand);
    return positions.start(result, sign.pos());
  }

  private Expr parsePostfix(Expr expr) {
    Expr result = expr;
    while (true) {
      switch (peek().type()) {
        case OFFSET -> result = parseOffset(result);
        case AT -> result = parseAt(result);
        case LEFT_BRACKET -> result = parseRangeOrSubquery(result);
        case IDENTIFIER -> {
          RangeMode mode = prometheus3 ? rangeMode(peek()) : null;
          if (mode == null) {
            return result;
          }
          result = parseRangeMode(result, mode, next());
        }
        default -> {
          return result;
        }
      }
    }
  }

  private Expr parsePrimary() {
    Token t = peek();
    switch (t.type()) {
      case NUMBER -> {
        next();
        return positions.start(new NumberLiteral(number(t)), t.pos());
      }
      case DURATION -> {
        if (!prometheus3) {
          throw unexpected(t);
        }
        // Prometheus 3 reads a duration where a number goes as its seconds.
        next();
        return positions.start(new NumberLiteral(durationMs(t) / 1000.0), t.pos());
      }
      case STRING -> {
        next();
        return positions.start(new StringLiteral(GoText.unquote(t.text())), t.pos());
      }
      case LEFT_PAREN -> {
        next();
        Expr inner = parseExpr(0);
        expect(TokenType.RIGHT_PAREN);
        return positions.start(new Paren(inner), t.pos());
      }
      case LEFT_BRACE -> {
        return parseSelector(null);
      }
      case IDENTIFIER -> {
        next();
        AggregateOp limit = prometheus3 ? LIMIT_OPS.get(t.text().toLowerCase(Locale.ROOT)) : null;
        TokenType after = peek().type();
        if (limit != null
            && (after == TokenType.LEFT_PAREN
                || after == TokenType.BY
                || after == TokenType.WITHOUT)) {
          return parseAggregate(t, limit);
        }
        return after == TokenType.LEFT_PAREN ? parseCall(t) : parseSelector(t);
      }
      case METRIC_IDENTIFIER -> {
        next();
        return parseSelector(t);
      }
      default -> {
        AggregateOp aggregate = AGGREGATE_OPS.get(t.type());
        if (aggregate != null) {
          next();
          TokenType after = peek().type();
          boolean aggregation =
              after == TokenType.LEFT_PAREN || after == TokenType.BY || after == TokenType.WITHOUT;
          return aggregation ? parseAggregate(t, aggregate) : parseSelector(t);
        }
        if (KEYWORD_METRIC_NAMES.contains(t.type())) {
          next();
          // Prometheus 3's start() and end() functions share their names with @'s keywords.
          boolean call =
              prometheus3
                  && (t.type() == TokenType.START || t.type() == TokenType.END)
                  && peek().type() == TokenType.LEFT_PAREN;
          return call ? parseCall(t) : parseSelector(t);
        }
        throw unexpected(t);
      }
    }
  }

  /**
   * A selector after its name token (null when it starts at the brace): Prometheus adds the name
   * matcher last.
   */
  private Expr parseSelector(Token name) {
    int start = name != null ? name.pos() : peek().pos();
    List<LabelMatcher> matchers = new ArrayList<>();
    String metric = name == null ? null : name.text();
    if (name == null || peek().type() == TokenType.LEFT_BRACE) {
      next();
      String quoted = parseMatchers(matchers);
      if (quoted != null && metric != null) {
        throw error(
            start,
            "metric name must not be set twice: "
                + GoQuote.of(metric)
                + " or "
                + GoQuote.of(quoted));
      }
      metric = quoted != null ? quoted : metric;
    }
    if (metric != null) {
      matchers.add(LabelMatcher.of(LabelMatcher.Type.EQUAL, LabelSet.METRIC_NAME, metric));
    }
    return positions.start(new VectorSelector(metric, matchers, 0, null), start);
  }

  /**
   * The matchers through the closing brace; returns a Prometheus 3 quoted metric name
   * ({"my.metric"}) or null.
   */
  private String parseMatchers(List<LabelMatcher> matchers) {
    String quotedName = null;
    if (accept(TokenType.RIGHT_BRACE)) {
      return null;
    }
    while (true) {
      Token first = peek();
      if (prometheus3 && first.type() == TokenType.STRING && lookaheadEndsMatcher()) {
        next();
        String name = GoText.unquote(first.text());
        if (quotedName != null) {
          throw error(
              first.pos(),
              "metric name must not be set twice: "
                  + GoQuote.of(quotedName)
                  + " or "
                  + GoQuote.of(name));
        }
        quotedName = name;
      } else {
        matchers.add(parseMatcher());
      }
      Token t = peek();
      if (t.type() == TokenType.COMMA) {
        next();
        if (accept(TokenType.RIGHT_BRACE)) {
          return quotedName;
        }
      } else if (t.type() == TokenType.RIGHT_BRACE) {
        next();
        return quotedName;
      } else {
        throw unexpected(t, "label matching", "\",\" or \"}\"");
      }
    }
  }

  /** Whether the string token at hand stands alone (a quoted metric name): a , or } follows it. */
  private boolean lookaheadEndsMatcher() {
    peek();
    if (lookahead.size() < 2) {
      lookahead.add(lexer.next());
    }
    TokenType after = lookahead.get(1).type();
    return after == TokenType.COMMA || after == TokenType.RIGHT_BRACE;
  }

  private LabelMatcher parseMatcher() {
    Token label = peek();
    boolean quotedLabel = prometheus3 && label.type() == TokenType.STRING;
    if (label.type() != TokenType.IDENTIFIER && !quotedLabel) {
      throw unexpected(label, "label matching", "identifier or \"}\"");
    }
    next();
    Token op = peek();
    LabelMatcher.Type type = MATCH_OPS.get(op.type());
    if (type == null) {
      throw unexpected(op, "label matching", "label matching operator");
    }
    next();
    Token value = peek();
    if (value.type() != TokenType.STRING) {
      throw unexpected(value, "label matching", "string");
    }
    next();
    String labelName = quotedLabel ? GoText.unquote(label.text()) : label.text();
    try {
      return LabelMatcher.of(type, labelName, GoText.unquote(value.text()), prometheus3);
    } catch (IllegalArgumentException e) {
      throw error(label.pos(), e.getMessage());
    }
  }

  private Expr parseCall(Token name) {
    next();
    List<Expr> args = parseArgs();
    Function function =
        Functions.byName(name.text(), prometheus3)
            .orElseThrow(
                () -> error(name.pos(), "unknown function with name " + GoQuote.of(name.text())));
    return positions.start(new Call(function, args), name.pos());
  }

  /** Arguments after the opening parenthesis, through the closing one. */
  private List<Expr> parseArgs() {
    List<Expr> args = new ArrayList<>();
    if (accept(TokenType.RIGHT_PAREN)) {
      return args;
    }
    while (true) {
      args.add(parseExpr(0));
      Token t = peek();
      if (t.type() == TokenType.COMMA) {
        next();
        // Prometheus takes a comma before anything that cannot start an argument for a trailing
        // one.
        if (!startsExpression(peek())) {
          throw error(t.pos(), "trailing commas not allowed in function call args");
        }
      } else if (t.type() == TokenType.RIGHT_PAREN) {
        next();
        return args;
      } else {
        throw unexpected(t);
      }
    }
  }

  private Expr parseAggregate(Token opToken, AggregateOp op) {
    aggregationDepth++;
    Grouping grouping = parseGrouping();
    Token open = peek();
    if (open.type() != TokenType.LEFT_PAREN) {
      throw unexpected(open);
    }
    next();
    List<Expr> args = parseArgs();
    if (grouping == null) {
      grouping = parseGrouping();
    }
    aggregationDepth--;
    if (args.isEmpty()) {
      throw error(opToken.pos(), "no arguments for aggregate expression provided");
    }
    int wanted = op.paramType() == null ? 1 : 2;
    if (args.size() != wanted) {
      throw error(
          opToken.pos(),
          "wrong number of arguments for aggregate expression provided, expected "
              + wanted
              + ", got "
              + args.size());
    }
    Expr param = wanted == 2 ? args.get(0) : null;
    List<String> labels = grouping == null ? List.of() : grouping.labels();
    boolean without = grouping != null && grouping.without();
    return positions.start(
        new Aggregate(op, args.get(wanted - 1), param, labels, without), opToken.pos());
  }

  private record Grouping(List<String> labels, boolean without) {}

  /** {@code by (...)} or {@code without (...)} if one comes next, else null. */
  private Grouping parseGrouping() {
    TokenType type = peek().type();
    if (type != TokenType.BY && type != TokenType.WITHOUT) {
      return null;
    }
    next();
    return new Grouping(parseGroupingLabels(), type == TokenType.WITHOUT);
  }

  private List<String> parseGroupingLabels() {
    Token open = peek();
    if (open.type() != TokenType.LEFT_PAREN) {
      throw unexpected(open, "grouping opts", "\"(\"");
    }
    next();
    List<String> labels = new ArrayList<>();
    if (accept(TokenType.RIGHT_PAREN)) {
      return labels;
    }
    while (true) {
      Token label = peek();
      if (prometheus3 && label.type() == TokenType.STRING) {
        next();
        labels.add(GoText.unquote(label.text())); // a quoted UTF-8 label name, Prometheus 3
      } else {
        if (!GROUPING_LABELS.contains(label.type()) || !isLabelName(label.text())) {
          throw unexpected(label, "grouping opts", "label");
        }
        next();
        labels.add(label.text());
      }
      Token t = peek();
      if (t.type() == TokenType.COMMA) {
        next();
        if (accept(TokenType.RIGHT_PAREN)) {
          return labels;
        }
      } else if (t.type() == TokenType.RIGHT_PAREN) {
        next();
        return labels;
      } else {
        throw unexpected(t, "grouping opts", "\",\" or \")\"");
      }
    }
  }

  /**
   * {@code on|ignoring (...)} and {@code group_left|group_right (...)} after an operator and its
   * {@code bool}.
   */
  private VectorMatching parseVectorMatching() {
    VectorMatching matching = parseGroupModifiers();
    return prometheus3 ? parseFill(matching) : matching;
  }

  private VectorMatching parseGroupModifiers() {
    TokenType type = peek().type();
    if (type != TokenType.ON && type != TokenType.IGNORING) {
      return new VectorMatching(Cardinality.ONE_TO_ONE, List.of(), false, List.of());
    }
    next();
    List<String> labels = parseGroupingLabels();
    TokenType group = peek().type();
    if (group != TokenType.GROUP_LEFT && group != TokenType.GROUP_RIGHT) {
      return new VectorMatching(Cardinality.ONE_TO_ONE, labels, type == TokenType.ON, List.of());
    }
    next();
    // A parenthesis right after group_left is always its label list, never the right-hand side.
    List<String> include =
        peek().type() == TokenType.LEFT_PAREN ? parseGroupingLabels() : List.of();
    Cardinality cardinality =
        group == TokenType.GROUP_LEFT ? Cardinality.MANY_TO_ONE : Cardinality.ONE_TO_MANY;
    return new VectorMatching(cardinality, labels, type == TokenType.ON, include);
  }

  /**
   * Prometheus 3.10's {@code fill(v)}, {@code fill_left(v)}, {@code fill_right(v)} after the group
   * modifiers: each word counts as the modifier only before a parenthesis, as in Prometheus.
   */
  private VectorMatching parseFill(VectorMatching matching) {
    Double left = null;
    Double right = null;
    boolean any = false;
    while (peek().type() == TokenType.IDENTIFIER && lookaheadIsParen()) {
      String word = peek().text().toLowerCase(Locale.ROOT);
      if (!word.equals("fill") && !word.equals("fill_left") && !word.equals("fill_right")) {
        break;
      }
      Token modifier = next();
      if ((word.equals("fill") && any)
          || (!word.equals("fill_right") && left != null)
          || (!word.equals("fill_left") && right != null)) {
        throw unexpected(modifier);
      }
      next();
      boolean negate = peek().type() == TokenType.SUB;
      if (negate || peek().type() == TokenType.ADD) {
        next();
      }
      Token value = next();
      double v;
      if (value.type() == TokenType.NUMBER) {
        v = number(value);
      } else if (value.type() == TokenType.DURATION) {
        v = durationMs(value) / 1000.0;
      } else {
        throw unexpected(value, "fill modifier", "number");
      }
      v = negate ? -v : v;
      expect(TokenType.RIGHT_PAREN);
      any = true;
      if (!word.equals("fill_right")) {
        left = v;
      }
      if (!word.equals("fill_left")) {
        right = v;
      }
    }
    return any
        ? new VectorMatching(
            matching.cardinality(),
            matching.labels(),
            matching.on(),
            matching.include(),
            left,
            right)
        : matching;
  }

  private boolean lookaheadIsParen() {
    peek();
    if (lookahead.size() < 2) {
      lookahead.add(lexer.next());
    }
    return lookahead.get(1).type() == TokenType.LEFT_PAREN;
  }

  /** {@code anchored} or {@code smoothed} (any case, as Prometheus's keywords), or null. */
  private static RangeMode rangeMode(Token t) {
    return switch (t.text().toLowerCase(Locale.ROOT)) {
      case "anchored" -> RangeMode.ANCHORED;
      case "smoothed" -> RangeMode.SMOOTHED;
      default -> null;
    };
  }

  private Expr parseRangeMode(Expr expr, RangeMode mode, Token word) {
    int start = positions.start(expr);
    String name = mode == RangeMode.ANCHORED ? "anchored" : "smoothed";
    VectorSelector v =
        expr instanceof MatrixSelector m
            ? m.selector()
            : expr instanceof VectorSelector s ? s : null;
    if (v == null) {
      throw error(
          start,
          name
              + (expr instanceof Subquery
                  ? " modifier is not supported for subqueries"
                  : " modifier not implemented"));
    }
    if (v.rangeMode() != RangeMode.PLAIN && v.rangeMode() != mode) {
      throw error(start, "anchored and smoothed modifiers cannot be used together");
    }
    VectorSelector marked = positions.start(v.withRangeMode(mode), positions.start(v));
    if (expr instanceof MatrixSelector m) {
      return positions.start(new MatrixSelector(marked, m.rangeMs(), m.rangeExpr()), start);
    }
    return marked;
  }

  private Expr parseOffset(Expr expr) {
    if (prometheus3) {
      return parseOffset3(expr);
    }
    next();
    Token t = peek();
    long offset;
    if (t.type() == TokenType.DURATION) {
      next();
      offset = duration(t);
    } else if (t.type() == TokenType.SUB) {
      next();
      Token d = peek();
      if (d.type() != TokenType.DURATION) {
        throw unexpected(d, "offset", "duration");
      }
      next();
      offset = -duration(d);
    } else {
      throw unexpected(t, "offset", "duration");
    }
    return withOffset(expr, offset, null);
  }

  /**
   * Prometheus 3's offset: a signed number (seconds) or duration, or a duration expression in
   * parentheses, {@code step()}, {@code range()}, {@code min(...)}, {@code max(...)}.
   */
  private Expr parseOffset3(Expr expr) {
    next();
    Token t = peek();
    boolean negate = t.type() == TokenType.SUB;
    if (negate || t.type() == TokenType.ADD) {
      next();
    }
    Token first = peek();
    if (!startsDurationPrimary(first)) {
      throw unexpected(first, "offset", "number, duration, or step()");
    }
    DurationExpr written = parseDurationPrimary();
    if (negate) {
      written = new DurationExpr.Negated(written);
    }
    return withOffset(expr, written.dependsOnQuery() ? 0 : millis(written, first), written);
  }

  private Expr withOffset(Expr expr, long offset, DurationExpr written) {
    int start = positions.start(expr);
    String alreadySet = "offset may not be set multiple times";
    if (expr instanceof VectorSelector v) {
      if (v.offsetMs() != 0 || v.offsetExpr() != null) {
        throw error(start, alreadySet);
      }
      return positions.start(v.withOffset(offset, written), start);
    } else if (expr instanceof MatrixSelector m) {
      VectorSelector v = m.selector();
      if (v.offsetMs() != 0 || v.offsetExpr() != null) {
        throw error(start, alreadySet);
      }
      VectorSelector moved = positions.start(v.withOffset(offset, written), start);
      return positions.start(new MatrixSelector(moved, m.rangeMs(), m.rangeExpr()), start);
    } else if (expr instanceof Subquery s) {
      if (s.offsetMs() != 0 || s.offsetExpr() != null) {
        throw error(start, alreadySet);
      }
      return positions.start(s.with(s.expr(), offset, written, s.at()), start);
    }
    throw error(
        start,
        "offset modifier must be preceded by an instant vector selector or range vector selector or a subquery");
  }

  private Expr parseAt(Expr expr) {
    next();
    Token t = peek();
    At at;
    if (t.type() == TokenType.START || t.type() == TokenType.END) {
      next();
      for (TokenType expected : List.of(TokenType.LEFT_PAREN, TokenType.RIGHT_PAREN)) {
        Token p = peek();
        if (p.type() != expected) {
          throw unexpected(p, "@", "timestamp");
        }
        next();
      }
      at = new At(t.type() == TokenType.START ? At.Kind.START : At.Kind.END, 0);
    } else {
      boolean negate = false;
      Token number = t;
      if (t.type() == TokenType.ADD || t.type() == TokenType.SUB) {
        next();
        negate = t.type() == TokenType.SUB;
        number = peek();
      }
      boolean duration = prometheus3 && number.type() == TokenType.DURATION;
      if (number.type() != TokenType.NUMBER && !duration) {
        throw unexpected(number, "@", "timestamp");
      }
      next();
      double value = duration ? durationMs(number) / 1000.0 : number(number);
      double seconds = negate ? -value : value;
      at = new At(At.Kind.TIMESTAMP, timestampMs(seconds, positions.start(expr)));
    }
    int start = positions.start(expr);
    String alreadySet = "@ <timestamp> may not be set multiple times";
    if (expr instanceof VectorSelector v) {
      if (v.at() != null) {
        throw error(start, alreadySet);
      }
      return positions.start(v.withAt(at), start);
    } else if (expr instanceof MatrixSelector m) {
      VectorSelector v = m.selector();
      if (v.at() != null) {
        throw error(start, alreadySet);
      }
      VectorSelector moved = positions.start(v.withAt(at), start);
      return positions.start(new MatrixSelector(moved, m.rangeMs(), m.rangeExpr()), start);
    } else if (expr instanceof Subquery s) {
      if (s.at() != null) {
        throw error(start, alreadySet);
      }
      return positions.start(s.with(s.expr(), s.offsetMs(), s.offsetExpr(), at), start);
    }
    throw error(
        start,
        "@ modifier must be preceded by an instant vector selector or range vector selector or a subquery");
  }

  private long timestampMs(double seconds, int exprStart) {
    if (Double.isNaN(seconds)
        || Double.isInfinite(seconds)
        || seconds >= 0x1p63
        || seconds <= -0x1p63) {
      throw error(exprStart, "timestamp out of bounds for @ modifier: " + goFloat(seconds));
    }
    // Go's math.Round: halves away from zero.
    double ms = seconds * 1000;
    return (long) (Math.signum(ms) * Math.floor(Math.abs(ms) + 0.5));
  }

  /** Go's {@code %f}. */
  private static String goFloat(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    } else if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    return new BigDecimal(v).setScale(6, RoundingMode.HALF_EVEN).toPlainString();
  }

  private Expr parseRangeOrSubquery(Expr expr) {
    if (prometheus3) {
      return parseRangeOrSubquery3(expr);
    }
    Token open = next();
    // Right after '[' the lexer reads a duration or fails.
    long range = duration(next());
    int start = positions.start(expr);
    Token t = peek();
    if (t.type() == TokenType.RIGHT_BRACKET) {
      next();
      return positions.start(new MatrixSelector(rangeSelector(expr, open), range), start);
    }
    if (t.type() != TokenType.COLON) {
      throw unexpected(t, "subquery or range", "\":\" or \"]\"");
    }
    next();
    long step = 0;
    Token stepToken = peek();
    if (stepToken.type() == TokenType.DURATION) {
      next();
      step = duration(stepToken);
      Token close = peek();
      if (close.type() != TokenType.RIGHT_BRACKET) {
        throw unexpected(close, "subquery selector", "\"]\"");
      }
    } else if (stepToken.type() != TokenType.RIGHT_BRACKET) {
      throw unexpected(stepToken, "subquery selector", "duration or \"]\"");
    }
    next();
    return positions.start(new Subquery(expr, range, step, 0, null), start);
  }

  /**
   * The selector a range {@code [...]} opened at {@code open} applies to: no offset nor @ timestamp
   * before it.
   */
  private VectorSelector rangeSelector(Expr expr, Token open) {
    if (!(expr instanceof VectorSelector v)) {
      throw error(open.pos(), "ranges only allowed for vector selectors");
    } else if (v.offsetMs() != 0 || v.offsetExpr() != null) {
      throw error(open.pos(), "no offset modifiers allowed before range");
    } else if (v.at() != null && v.at().kind() == At.Kind.TIMESTAMP) {
      // Prometheus v2.42 and 3 let @ start() and @ end() through here.
      throw error(open.pos(), "no @ modifiers allowed before range");
    }
    return v;
  }

  /**
   * Prometheus 3: the brackets hold duration expressions; their checks are v2.42's, worded as 3.x
   * words them.
   */
  private Expr parseRangeOrSubquery3(Expr expr) {
    Token open = next();
    Token rangeStart = peek();
    DurationExpr range = parseDurationExpr(0);
    long rangeMs = positiveMillis(range, rangeStart);
    int start = positions.start(expr);
    Token t = peek();
    if (t.type() == TokenType.RIGHT_BRACKET) {
      next();
      return positions.start(new MatrixSelector(rangeSelector(expr, open), rangeMs, range), start);
    }
    if (t.type() != TokenType.COLON) {
      throw unexpected(t, "subquery or range", "\":\" or \"]\"");
    }
    next();
    DurationExpr step = null;
    long stepMs = 0;
    Token stepToken = peek();
    if (stepToken.type() != TokenType.RIGHT_BRACKET) {
      if (!startsDurationExpr(stepToken)) {
        throw unexpected(stepToken, "subquery selector", "duration or \"]\"");
      }
      step = parseDurationExpr(0);
      stepMs = positiveMillis(step, stepToken);
      Token close = peek();
      if (close.type() != TokenType.RIGHT_BRACKET) {
        throw unexpected(close, "subquery selector", "\"]\"");
      }
    }
    next();
    return positions.start(new Subquery(expr, rangeMs, stepMs, 0, null, range, step, null), start);
  }

  /**
   * Duration arithmetic: {@code + -} below {@code * / %} below {@code ^} (right-associative); a
   * sign binds like {@code *}.
   */
  private DurationExpr parseDurationExpr(int minPrecedence) {
    if (++depth > maxDepth) {
      throw new TooDeep();
    }
    DurationExpr lhs;
    Token sign = peek();
    if (sign.type() == TokenType.ADD || sign.type() == TokenType.SUB) {
      next();
      DurationExpr operand = parseDurationExpr(BinaryOp.MUL.precedence());
      lhs = sign.type() == TokenType.SUB ? new DurationExpr.Negated(operand) : operand;
    } else {
      lhs = parseDurationPrimary();
    }
    while (true) {
      Token operator = peek();
      BinaryOp op = BINARY_OPS.get(operator.type());
      if (op == null || op.precedence() < Math.max(minPrecedence, BinaryOp.ADD.precedence())) {
        depth--;
        return lhs;
      }
      if (op == BinaryOp.ATAN2) {
        throw unexpected(operator, "duration expression", "");
      }
      next();
      DurationExpr rhs =
          parseDurationExpr(op.rightAssociative() ? op.precedence() : op.precedence() + 1);
      if ((op == BinaryOp.DIV || op == BinaryOp.MOD) && rhs.constantSeconds().orElse(1) == 0) {
        throw error(operator.pos(), op == BinaryOp.DIV ? "division by zero" : "modulo by zero");
      }
      lhs = new DurationExpr.Arithmetic(op, lhs, rhs);
    }
  }

  private DurationExpr parseDurationPrimary() {
    Token t = peek();
    switch (t.type()) {
      case NUMBER -> {
        next();
        return new DurationExpr.Literal(t.text(), number(t));
      }
      case DURATION -> {
        next();
        return new DurationExpr.Literal(t.text(), durationMs(t) / 1000.0);
      }
      case LEFT_PAREN -> {
        next();
        DurationExpr inner = parseDurationExpr(0);
        expect(TokenType.RIGHT_PAREN);
        return new DurationExpr.Parenthesized(inner);
      }
      case MIN, MAX -> {
        return extremum(t.type() == TokenType.MAX);
      }
      case IDENTIFIER -> {
        String word = t.text().toLowerCase(Locale.ROOT);
        if (word.equals("step") || word.equals("range")) {
          next();
          expect(TokenType.LEFT_PAREN);
          expect(TokenType.RIGHT_PAREN);
          return new DurationExpr.QueryParameter(word.equals("range"));
        }
        if (word.equals("min_of") || word.equals("max_of")) {
          // Prometheus 3.11's names for min and max in durations
          return extremum(word.equals("max_of"));
        }
        throw unexpected(t, "duration expression", "");
      }
      default -> throw unexpected(t, "duration expression", "");
    }
  }

  /** {@code min(a, b)} or {@code max(a, b)} of durations, from the name's token on. */
  private DurationExpr extremum(boolean max) {
    next();
    expect(TokenType.LEFT_PAREN);
    DurationExpr a = parseDurationExpr(0);
    expect(TokenType.COMMA);
    DurationExpr b = parseDurationExpr(0);
    expect(TokenType.RIGHT_PAREN);
    return new DurationExpr.Extremum(max, a, b);
  }

  private static boolean startsDurationPrimary(Token t) {
    return switch (t.type()) {
      case NUMBER, DURATION, LEFT_PAREN, MIN, MAX -> true;
      case IDENTIFIER ->
          List.of("step", "range", "min_of", "max_of").contains(t.text().toLowerCase(Locale.ROOT));
      default -> false;
    };
  }

  private static boolean startsDurationExpr(Token t) {
    return t.type() == TokenType.ADD || t.type() == TokenType.SUB || startsDurationPrimary(t);
  }

  /**
   * Milliseconds as Prometheus converts seconds: a literal rounded to the nanosecond ({@code
   * math.Round(s * 1e9)}, so that 1001ms, 1.001 s, is not 1000.9999 ms), an expression cut to the
   * millisecond ({@code time.Duration(s * 1000) * time.Millisecond}).
   */
  private long millis(DurationExpr d, Token at) {
    double seconds = d.seconds(0, 0);
    if (Double.isNaN(seconds) || Math.abs(seconds) > (double) Long.MAX_VALUE / 1e9) {
      throw error(at.pos(), "duration out of range");
    }
    if (d instanceof DurationExpr.Literal) {
      return Math.round(seconds * 1e9) / 1_000_000;
    }
    return (long) (seconds * 1000);
  }

  /**
   * A range or step: positive when it can be known now; 0 when it needs the query's step or range.
   */
  private long positiveMillis(DurationExpr d, Token at) {
    if (d.dependsOnQuery()) {
      return 0;
    }
    long ms = millis(d, at);
    if (ms <= 0) {
      throw error(at.pos(), "duration must be greater than 0");
    }
    return ms;
  }

  /**
   * A duration literal of Prometheus 3, where 0s is a value like any other (its callers check the
   * sign).
   */
  private long durationMs(Token t) {
    try {
      return Durations.parsePrometheus(t.text()).toMillis();
    } catch (IllegalArgumentException e) {
      throw error(t.pos(), e.getMessage());
    }
  }

  /** A range, step or offset literal, which Prometheus's {@code parseDuration} wants above zero. */
  private long duration(Token t) {
    long ms = durationMs(t);
    if (ms == 0) {
      throw error(t.pos(), "duration must be greater than 0");
    }
    return ms;
  }

  /**
   * Go's {@code ParseInt(s, 0, 64)} (so {@code 010} is octal), else {@code ParseFloat}, as
   * Prometheus reads numbers.
   */
  private double number(Token t) {
    String text = t.text();
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.equals("inf")) {
      return Double.POSITIVE_INFINITY;
    } else if (lower.equals("nan")) {
      return Double.NaN;
    }
    boolean hex = lower.startsWith("0x");
    try {
      if (hex) {
        return Long.parseLong(text.substring(2), 16);
      } else if (OCTAL.matcher(text).matches()) {
        return Long.parseLong(text, 8);
      } else if (DECIMAL.matcher(text).matches()) {
        return Long.parseLong(text);
      }
    } catch (NumberFormatException e) {
      // Beyond int64: Go falls back to ParseFloat, as below.
    }
    String failure = "error parsing number: strconv.ParseFloat: parsing " + GoQuote.of(text) + ": ";
    if (hex) {
      // Go's ParseFloat wants a p exponent in hexadecimal, which the lexer never lets through.
      throw error(t.pos(), failure + "invalid syntax");
    }
    double value;
    try {
      value = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw error(t.pos(), failure + "invalid syntax");
    }
    if (Double.isInfinite(value)) {
      throw error(t.pos(), failure + "value out of range");
    }
    return value;
  }

  private boolean startsExpression(Token t) {
    if (prometheus3 && t.type() == TokenType.DURATION) {
      return true;
    }
    return switch (t.type()) {
      case NUMBER, STRING, LEFT_PAREN, LEFT_BRACE, ADD, SUB, IDENTIFIER, METRIC_IDENTIFIER -> true;
      default -> AGGREGATE_OPS.containsKey(t.type()) || KEYWORD_METRIC_NAMES.contains(t.type());
    };
  }

  private static boolean isLabelName(String s) {
    if (s.isEmpty() || !Lexer.isAlpha(s.charAt(0))) {
      return false;
    }
    return s.chars().allMatch(Lexer::isAlphaNumeric);
  }

  private Token peek() {
    if (lookahead.isEmpty()) {
      lookahead.add(lexer.next());
    }
    return lookahead.get(0);
  }

  private Token next() {
    Token t = peek();
    lookahead.remove(0);
    return t;
  }

  private boolean accept(TokenType type) {
    if (peek().type() == type) {
      next();
      return true;
    }
    return false;
  }

  private void expect(TokenType type) {
    if (!accept(type)) {
      throw unexpected(peek());
    }
  }

  /**
   * An unexpected token where no narrower context applies, as Prometheus's outermost error rules
   * report it.
   */
  private PromqlException unexpected(Token t) {
    return unexpected(t, aggregationDepth > 0 ? "aggregation" : "", "");
  }

  private PromqlException unexpected(Token t, String context, String expected) {
    StringBuilder message = new StringBuilder("unexpected ").append(t.describe());
    if (!context.isEmpty()) {
      message.append(" in ").append(context);
    }
    if (!expected.isEmpty()) {
      message.append(", expected ").append(expected);
    }
    return error(t.pos(), message.toString());
  }

  private PromqlException error(int pos, String message) {
    return ParseErrors.at(query, pos, message);
  }
}
