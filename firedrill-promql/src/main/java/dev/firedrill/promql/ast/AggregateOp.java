package dev.firedrill.promql.ast;

/** PromQL's aggregation operators; those with a parameter say its type. */
public enum AggregateOp {
  SUM("sum", null),
  AVG("avg", null),
  COUNT("count", null),
  MIN("min", null),
  MAX("max", null),
  GROUP("group", null),
  STDDEV("stddev", null),
  STDVAR("stdvar", null),
  TOPK("topk", ValueType.SCALAR),
  BOTTOMK("bottomk", ValueType.SCALAR),
  QUANTILE("quantile", ValueType.SCALAR),
  COUNT_VALUES("count_values", ValueType.STRING),
  /**
   * Prometheus 3's (experimental, 2.54 and later): only its parser syntax reads them; the engine
   * refuses them.
   */
  LIMITK("limitk", ValueType.SCALAR),
  LIMIT_RATIO("limit_ratio", ValueType.SCALAR);

  private final String promName;
  private final ValueType paramType;

  AggregateOp(String promName, ValueType paramType) {
    this.promName = promName;
    this.paramType = paramType;
  }

  public String promName() {
    return promName;
  }

  /** The parameter's type, or null when the operator takes none. */
  public ValueType paramType() {
    return paramType;
  }
}
