package dev.firedrill.proxy;

import java.util.Locale;

/**
 * Which way a toxic acts, as Toxiproxy names it: on the request (upstream) or the response
 * (downstream).
 */
public enum ToxicStream {
  UPSTREAM,
  DOWNSTREAM;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The stream named {@code text}, or null. */
  static ToxicStream parse(String text) {
    for (ToxicStream stream : values()) {
      if (stream.wireName().equals(text)) {
        return stream;
      }
    }
    return null;
  }
}
