package dev.firedrill.network.nft;

import java.util.List;
import java.util.Locale;

/** The transport protocol a rule matches. */
public enum Protocol {
  TCP,
  UDP,
  /** Every protocol (with ports: whatever has ports, nft's {@code th}). */
  ALL;

  static final List<String> NAMES = List.of("tcp", "udp", "all");

  public String text() {
    return name().toLowerCase(Locale.ROOT);
  }
}
