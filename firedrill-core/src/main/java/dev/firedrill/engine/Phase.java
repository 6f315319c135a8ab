package dev.firedrill.engine;

/** Where the drill is; printed on every console line and journaled with every measurement. */
public enum Phase {
  PLAN("plan"),
  PREFLIGHT("before"),
  INJECT("inject"),
  DURING("during"),
  ABORT("abort"),
  ROLLBACK("rollback"),
  AFTER("after"),
  DETECT("detect"),
  VERDICT("verdict");

  private final String text;

  Phase(String text) {
    this.text = text;
  }

  public String text() {
    return text;
  }
}
