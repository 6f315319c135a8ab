package dev.firedrill.embedded.config;

/** A prometheus.yml the embedded Prometheus refuses: {@code FILE: /key/path: what was expected}. */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ConfigException(String message) {
    super(message);
  }
}
