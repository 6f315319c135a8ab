package dev.firedrill.fault;

/**
 * What ends a fault at its TTL when firedrill itself is gone: {@code plan} prints it and the
 * journal keeps it beside each fault.
 */
public enum TtlEnforcer {
  /** The tool that injected it: firedrill's proxy, Chaos Mesh's duration, a worker's own clock. */
  INJECTOR("the injector"),
  /** The kernel: nftables set elements that carry a timeout. */
  KERNEL("the kernel"),
  /** firedrill's detached watchdog, which undoes the fault when its lease or TTL runs out. */
  WATCHDOG("the watchdog"),
  /** Nothing is left to undo once the fault has acted (a deleted pod); the owner replaces it. */
  NONE("nothing: the fault leaves nothing to undo");

  private final String words;

  TtlEnforcer(String words) {
    this.words = words;
  }

  /** How {@code plan} and the journal say it. */
  public String words() {
    return words;
  }
}
