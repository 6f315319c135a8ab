package dev.firedrill.alerting.routes;

/**
 * The four label matcher operators, in Alertmanager's order (which breaks ties when matchers are
 * sorted).
 */
public enum MatchType {
  EQUAL("="),
  NOT_EQUAL("!="),
  REGEXP("=~"),
  NOT_REGEXP("!~");

  private final String operator;

  MatchType(String operator) {
    this.operator = operator;
  }

  public String operator() {
    return operator;
  }

  static MatchType of(String operator) {
    for (MatchType type : values()) {
      if (type.operator.equals(operator)) {
        return type;
      }
    }
    throw new IllegalArgumentException("unknown match operator " + operator);
  }
}
