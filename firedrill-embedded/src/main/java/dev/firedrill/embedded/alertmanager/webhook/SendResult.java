package dev.firedrill.embedded.alertmanager.webhook;

import java.util.Objects;

/**
 * How one webhook request went: delivered, worth retrying (5xx, no connection), or refused for good
 * (4xx).
 */
public sealed interface SendResult {

  record Delivered() implements SendResult {}

  record Retry(String error) implements SendResult {
    public Retry {
      Objects.requireNonNull(error, "error");
    }
  }

  record Failed(String error) implements SendResult {
    public Failed {
      Objects.requireNonNull(error, "error");
    }
  }

  /**
   * As Alertmanager's retrier judges a status code: 2xx delivered, 5xx retried, anything else
   * failed.
   */
  static SendResult ofStatus(int status, String body) {
    if (status / 100 == 2) {
      return new Delivered();
    }
    String error =
        "unexpected status code " + status + (body.isBlank() ? "" : ": " + oneLine(body));
    return status / 100 == 5 ? new Retry(error) : new Failed(error);
  }

  private static String oneLine(String text) {
    String line = text.strip().replaceAll("\\s+", " ");
    return line.length() <= 200 ? line : line.substring(0, 200) + "...";
  }
}
