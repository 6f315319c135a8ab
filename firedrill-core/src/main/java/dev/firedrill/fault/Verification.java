package dev.firedrill.fault;

/** Whether a fault is gone from the system, and what was seen. */
public record Verification(boolean reverted, String detail) {

  public static Verification reverted(String detail) {
    return new Verification(true, detail);
  }

  public static Verification remaining(String detail) {
    return new Verification(false, detail);
  }
}
