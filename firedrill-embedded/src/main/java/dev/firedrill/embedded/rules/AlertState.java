package dev.firedrill.embedded.rules;

import java.util.Locale;

/** An alert's state, ordered as Prometheus orders them when a rule reports its most severe one. */
public enum AlertState {
  INACTIVE,
  PENDING,
  FIRING;

  /** As Prometheus's API and the {@code alertstate} label write it: {@code firing}. */
  public String apiName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
