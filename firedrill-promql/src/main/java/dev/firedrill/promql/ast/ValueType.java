package dev.firedrill.promql.ast;

/** The four PromQL value types, named as Prometheus names them in errors and in the API. */
public enum ValueType {
  SCALAR("scalar"),
  VECTOR("vector"),
  MATRIX("matrix"),
  STRING("string");

  private final String promName;

  ValueType(String promName) {
    this.promName = promName;
  }

  /** {@code scalar}, {@code vector} ("instant vector" in errors is the parser's wording), ... */
  public String promName() {
    return promName;
  }
}
