package dev.firedrill.lab.trace;

import dev.firedrill.http.Propagation;
import java.nio.charset.StandardCharsets;

/**
 * The W3C {@code baggage} header as the load generator writes it into its prepared request head:
 * one member (spans' baggage goes through dev.firedrill.http.Propagation).
 */
public final class Baggage {

  public static final String HEADER = "baggage";

  private Baggage() {}

  /**
   * {@code key=value}, the value percent-encoded where the spec's baggage-octet does not allow a
   * byte.
   */
  public static String member(String key, String value) {
    StringBuilder out = new StringBuilder(key).append('=');
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      boolean octet =
          c == 0x21
              || (c >= 0x23 && c <= 0x2b)
              || (c >= 0x2d && c <= 0x3a)
              || (c >= 0x3c && c <= 0x5b)
              || (c >= 0x5d && c <= 0x7e);
      if (octet && c != '%') {
        out.append((char) c);
      } else {
        out.append('%').append(String.format("%02X", c));
      }
    }
    return out.toString();
  }

  /** {@code chaos.experiment.id=<id>}. */
  public static String experiment(String experimentId) {
    return member(Propagation.EXPERIMENT_ID, experimentId);
  }
}
