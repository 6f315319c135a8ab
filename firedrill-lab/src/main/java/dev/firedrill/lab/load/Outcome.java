package dev.firedrill.lab.load;

import java.util.Locale;

/** How one request ended, as the {@code outcome} label says it. */
public enum Outcome {
  /** 2xx or 3xx. */
  OK,
  /** 4xx or 5xx. */
  ERROR,
  /** No response within the client timeout. */
  TIMEOUT,
  /** Connection refused, reset or closed before a response. */
  REFUSED;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
