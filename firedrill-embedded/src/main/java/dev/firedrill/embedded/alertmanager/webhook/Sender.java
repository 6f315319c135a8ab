package dev.firedrill.embedded.alertmanager.webhook;

import java.net.URI;
import java.time.Duration;

/** Posts one webhook payload; a test sends to a list, the runner over HTTP. */
@FunctionalInterface
public interface Sender {

  /**
   * One attempt, giving up after {@code timeout}; never throws for a failed request, only for an
   * interrupt.
   */
  SendResult send(URI url, byte[] json, Duration timeout) throws InterruptedException;
}
