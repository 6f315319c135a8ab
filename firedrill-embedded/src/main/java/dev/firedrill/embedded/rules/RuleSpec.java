package dev.firedrill.embedded.rules;

import dev.firedrill.promql.ast.Expr;
import java.util.Map;

/** A rule as its file defines it; {@code query} is the expression as written, trimmed. */
public sealed interface RuleSpec {

  String name();

  String query();

  Expr expr();

  Map<String, String> labels();

  record Recording(String name, String query, Expr expr, Map<String, String> labels)
      implements RuleSpec {
    public Recording {
      labels = Map.copyOf(labels);
    }
  }

  /** Label and annotation values are templates; they parsed when the file was loaded. */
  record Alerting(
      String name,
      String query,
      Expr expr,
      long forMs,
      long keepFiringForMs,
      Map<String, String> labels,
      Map<String, String> annotations)
      implements RuleSpec {
    public Alerting {
      labels = Map.copyOf(labels);
      annotations = Map.copyOf(annotations);
    }
  }
}
