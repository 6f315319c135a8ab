package dev.firedrill.http;

/**
 * Settings that cannot be used as they are: a secret that cannot be read, a PEM file that is not
 * one. One line.
 */
public final class HttpSettingsException extends Exception {
  private static final long serialVersionUID = 1L;

  public HttpSettingsException(String message) {
    super(message);
  }

  public HttpSettingsException(String message, Throwable cause) {
    super(message, cause);
  }
}
