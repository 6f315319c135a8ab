package dev.firedrill.fault;

/**
 * Whether a fault is gone from the system, whether what it broke has come back, and what was seen.
 * The two differ for faults with nothing to undo (a deleted pod): the fault is over at once, but
 * the system's own recovery may fail, which is the hypothesis's failure and not the rollback's.
 */
public record Verification(boolean reverted, boolean recovered, String detail) {

  public Verification {
    if (recovered && !reverted) {
      throw new IllegalArgumentException("a fault still present cannot have recovered");
    }
  }

  public static Verification reverted(String detail) {
    return new Verification(true, true, detail);
  }

  public static Verification remaining(String detail) {
    return new Verification(false, false, detail);
  }

  /** Nothing is left to undo, but the targets are not back (a replacement never became Ready). */
  public static Verification unrecovered(String detail) {
    return new Verification(true, false, detail);
  }
}
