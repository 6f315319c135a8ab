package dev.firedrill.network.nft;

import java.util.List;
import java.util.Locale;

/** Which packets of a conversation with the targets a rule matches. */
public enum Direction {
  /** Packets the namespace sends to the targets (the output hook, {@code ip daddr}). */
  EGRESS,
  /** Packets the namespace receives from the targets (the input hook, {@code ip saddr}). */
  INGRESS,
  /** Both. */
  BOTH;

  static final List<String> NAMES = List.of("egress", "ingress", "both");

  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Before the targets: "to", "from", "to and from". */
  String words() {
    return switch (this) {
      case EGRESS -> "to";
      case INGRESS -> "from";
      case BOTH -> "to and from";
    };
  }

  boolean egress() {
    return this != INGRESS;
  }

  boolean ingress() {
    return this != EGRESS;
  }
}
