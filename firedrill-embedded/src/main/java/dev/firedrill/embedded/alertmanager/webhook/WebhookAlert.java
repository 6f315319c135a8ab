package dev.firedrill.embedded.alertmanager.webhook;

import dev.firedrill.embedded.alertmanager.alert.Alert;
import java.util.Objects;

/**
 * An alert as a flush sees it: resolved or not is decided once, at the flush's tick, so a retry
 * later sends the same statuses, as Alertmanager's copy with {@code endsAt} cleared does.
 */
public record WebhookAlert(Alert alert, boolean resolved) {

  public WebhookAlert {
    Objects.requireNonNull(alert, "alert");
  }
}
