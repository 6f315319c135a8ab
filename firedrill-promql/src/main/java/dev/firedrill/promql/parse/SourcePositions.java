package dev.firedrill.promql.parse;

import dev.firedrill.promql.ast.Expr;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Where each parsed node starts, and where each binary operator stands, for errors found after
 * parsing; the AST itself carries no positions. Nodes are keyed by identity, as equal records may
 * stand at different places.
 */
final class SourcePositions {

  private final Map<Expr, Integer> starts = new IdentityHashMap<>();
  private final Map<Expr.Binary, Integer> operators = new IdentityHashMap<>();

  <T extends Expr> T start(T node, int pos) {
    starts.put(node, pos);
    return node;
  }

  int start(Expr node) {
    return starts.get(node);
  }

  /** A node the type checker rebuilt stands where the one it replaces stood. */
  void same(Expr rebuilt, Expr original) {
    Integer start = starts.get(original);
    if (start != null && rebuilt != original) {
      starts.put(rebuilt, start);
    }
  }

  /** Every node's start, by identity; read-only. */
  Map<Expr, Integer> starts() {
    return Collections.unmodifiableMap(starts);
  }

  void operator(Expr.Binary node, int pos) {
    operators.put(node, pos);
  }

  int operator(Expr.Binary node) {
    return operators.get(node);
  }
}
