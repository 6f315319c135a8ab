package dev.firedrill.promql.parse;

import dev.firedrill.format.GoQuote;
import dev.firedrill.promql.ast.BinaryOp;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.ast.Expr.Aggregate;
import dev.firedrill.promql.ast.Expr.Binary;
import dev.firedrill.promql.ast.Expr.Call;
import dev.firedrill.promql.ast.Expr.MatrixSelector;
import dev.firedrill.promql.ast.Expr.Paren;
import dev.firedrill.promql.ast.Expr.Subquery;
import dev.firedrill.promql.ast.Expr.Unary;
import dev.firedrill.promql.ast.Expr.VectorMatching;
import dev.firedrill.promql.ast.Expr.VectorMatching.Cardinality;
import dev.firedrill.promql.ast.Expr.VectorSelector;
import dev.firedrill.promql.ast.Function;
import dev.firedrill.promql.ast.ValueType;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import java.util.ArrayList;
import java.util.List;

/**
 * Prometheus's {@code checkAST}: runs once the whole query has parsed, children before parents, and
 * reports the first error as Prometheus does. It also settles each binary operation's vector
 * matching, as Prometheus does at this step.
 */
final class TypeChecker {

  private final String query;
  private final SourcePositions positions;
  private final int maxDepth;
  private int depth;

  TypeChecker(String query, SourcePositions positions, int maxDepth) {
    this.query = query;
    this.positions = positions;
    this.maxDepth = maxDepth;
  }

  Expr check(Expr node) {
    if (++depth > maxDepth) {
      throw new Parser.TooDeep();
    }
    Expr checked = checkNode(node);
    positions.same(checked, node);
    depth--;
    return checked;
  }

  private Expr checkNode(Expr node) {
    if (node instanceof Aggregate a) {
      Expr expr = expect(a.expr(), ValueType.VECTOR, "aggregation expression");
      Expr param =
          a.op().paramType() == null
              ? a.param()
              : expect(a.param(), a.op().paramType(), "aggregation parameter");
      return new Aggregate(a.op(), expr, param, a.grouping(), a.without());
    } else if (node instanceof Binary b) {
      return checkBinary(b);
    } else if (node instanceof Call c) {
      return checkCall(c);
    } else if (node instanceof Paren p) {
      return new Paren(check(p.expr()));
    } else if (node instanceof Unary u) {
      Expr operand = check(u.expr());
      if (operand.type() != ValueType.SCALAR && operand.type() != ValueType.VECTOR) {
        throw error(
            positions.start(u),
            "unary expression only allowed on expressions of type scalar or instant vector, got "
                + GoQuote.of(documented(operand.type())));
      }
      return new Unary(u.negate(), operand);
    } else if (node instanceof Subquery s) {
      Expr inner = check(s.expr());
      if (inner.type() != ValueType.VECTOR) {
        throw error(
            positions.start(s),
            "subquery is only allowed on instant vector, got "
                + inner.type().promName()
                + " instead");
      }
      return s.with(inner, s.offsetMs(), s.offsetExpr(), s.at());
    } else if (node instanceof MatrixSelector m) {
      checkSelector(m.selector());
    } else if (node instanceof VectorSelector v) {
      checkSelector(v);
    }
    return node;
  }

  private Expr checkBinary(Binary b) {
    Expr lhs = check(b.lhs());
    Expr rhs = check(b.rhs());
    ValueType lt = lhs.type();
    ValueType rt = rhs.type();
    BinaryOp op = b.op();
    int operator = positions.operator(b);
    if (b.returnBool() && !op.isComparison()) {
      throw error(operator, "bool modifier can only be used on comparison operators");
    }
    if (op.isComparison() && !b.returnBool() && lt == ValueType.SCALAR && rt == ValueType.SCALAR) {
      throw error(operator, "comparisons between scalars must use BOOL modifier");
    }
    VectorMatching matching = b.matching();
    if (op.isSetOperator() && matching.cardinality() == Cardinality.ONE_TO_ONE) {
      matching = matching.withCardinality(Cardinality.MANY_TO_MANY);
    }
    boolean fills = matching.fillLeft() != null || matching.fillRight() != null;
    if (fills && (lt != ValueType.VECTOR || rt != ValueType.VECTOR)) {
      throw error(
          positions.start(b), "filling in missing series only allowed between instant vectors");
    }
    if (fills && op.isSetOperator()) {
      throw error(positions.start(b), "filling in missing series not allowed for set operators");
    }
    if (matching.on()) {
      for (String label : matching.labels()) {
        if (matching.include().contains(label)) {
          throw error(
              operator,
              "label " + GoQuote.of(label) + " must not occur in ON and GROUP clause at once");
        }
      }
    }
    if (lt != ValueType.SCALAR && lt != ValueType.VECTOR) {
      throw error(
          positions.start(b.lhs()),
          "binary expression must contain only scalar and instant vector types");
    }
    if (rt != ValueType.SCALAR && rt != ValueType.VECTOR) {
      throw error(
          positions.start(b.rhs()),
          "binary expression must contain only scalar and instant vector types");
    }
    int start = positions.start(b);
    if (lt != ValueType.VECTOR || rt != ValueType.VECTOR) {
      if (!matching.labels().isEmpty()) {
        throw error(start, "vector matching only allowed between instant vectors");
      }
      matching = null;
    } else if (op.isSetOperator() && matching.cardinality() != Cardinality.MANY_TO_MANY) {
      throw error(start, "no grouping allowed for " + GoQuote.of(op.symbol()) + " operation");
    }
    if ((lt == ValueType.SCALAR || rt == ValueType.SCALAR) && op.isSetOperator()) {
      throw error(
          start,
          "set operator " + GoQuote.of(op.symbol()) + " not allowed in binary scalar expression");
    }
    return new Binary(op, lhs, rhs, b.returnBool(), matching);
  }

  private Expr checkCall(Call c) {
    Function f = c.function();
    int declared = f.argTypes().size();
    int given = c.args().size();
    String name = GoQuote.of(f.name());
    if (f.variadic() == 0) {
      if (declared != given) {
        throw error(
            positions.start(c),
            "expected " + declared + " argument(s) in call to " + name + ", got " + given);
      }
    } else {
      int required = declared - 1;
      if (required > given) {
        throw error(
            positions.start(c),
            "expected at least " + required + " argument(s) in call to " + name + ", got " + given);
      } else if (f.variadic() > 0 && required + f.variadic() < given) {
        throw error(
            positions.start(c),
            "expected at most "
                + (required + f.variadic())
                + " argument(s) in call to "
                + name
                + ", got "
                + given);
      }
    }
    boolean infoSelector = f.name().equals("info") && given > 1;
    if (infoSelector) {
      checkInfoSelector(c);
    }
    List<Expr> args = new ArrayList<>();
    for (int i = 0; i < given; i++) {
      if (i == 1 && infoSelector) {
        // A label selector, not a series selector: it may match the empty string throughout.
        args.add(c.args().get(i));
        continue;
      }
      // Optional trailing arguments take the type of the last declared one.
      ValueType want = f.argTypes().get(Math.min(i, declared - 1));
      args.add(expect(c.args().get(i), want, "call to function " + name));
    }
    return new Call(f, args);
  }

  /**
   * Prometheus 3's {@code info(v, {data=~".+"})}: the second argument is only label matchers, which
   * are exempt from the check that a selector has a matcher not matching the empty string ({@code
   * info(v, {data=~".*"})} is valid).
   */
  private void checkInfoSelector(Call c) {
    Expr selector = c.args().get(1);
    if (selector.type() != ValueType.VECTOR) {
      throw error(
          positions.start(c),
          "expected type instant vector in call to function \"info\", got "
              + documented(selector.type()));
    }
    if (!(selector instanceof VectorSelector v)) {
      throw error(positions.start(selector), "expected label selectors only");
    }
    if (v.name() != null) {
      throw error(
          positions.start(selector), "expected label selectors only, got vector selector instead");
    }
  }

  private void checkSelector(VectorSelector v) {
    List<LabelMatcher> matchers = v.matchers();
    if (v.name() != null) {
      // The last matcher is the one for the written name.
      for (LabelMatcher m : matchers.subList(0, matchers.size() - 1)) {
        if (m.name().equals(LabelSet.METRIC_NAME)) {
          throw error(
              positions.start(v),
              "metric name must not be set twice: "
                  + GoQuote.of(v.name())
                  + " or "
                  + GoQuote.of(m.value()));
        }
      }
    } else if (matchers.stream().allMatch(LabelMatcher::matchesEmpty)) {
      throw error(
          positions.start(v), "vector selector must contain at least one non-empty matcher");
    }
  }

  private Expr expect(Expr node, ValueType want, String context) {
    Expr checked = check(node);
    if (checked.type() != want) {
      throw error(
          positions.start(node),
          "expected type "
              + documented(want)
              + " in "
              + context
              + ", got "
              + documented(checked.type()));
    }
    return checked;
  }

  /** The names Prometheus's type errors use. */
  private static String documented(ValueType type) {
    return switch (type) {
      case VECTOR -> "instant vector";
      case MATRIX -> "range vector";
      default -> type.promName();
    };
  }

  private PromqlException error(int pos, String message) {
    return ParseErrors.at(query, pos, message);
  }
}
