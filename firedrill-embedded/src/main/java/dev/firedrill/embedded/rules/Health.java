package dev.firedrill.embedded.rules;

/** A rule's health as Prometheus's API writes it. */
public enum Health {
  UNKNOWN("unknown"),
  OK("ok"),
  ERR("err");

  private final String apiName;

  Health(String apiName) {
    this.apiName = apiName;
  }

  public String apiName() {
    return apiName;
  }
}
