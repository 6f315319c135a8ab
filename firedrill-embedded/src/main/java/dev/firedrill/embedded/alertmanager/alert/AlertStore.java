package dev.firedrill.embedded.alertmanager.alert;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Alertmanager's in-memory alert provider: one alert per fingerprint, a newer copy merged with the
 * one held when their active ranges overlap; resolved alerts stay until {@link #collectResolved}.
 * Not thread-safe: its owner serialises access.
 */
public final class AlertStore {

  private final Map<Long, Alert> alerts = new LinkedHashMap<>();

  /** Stores each alert (merged as Alertmanager does) and returns what was stored, in order. */
  public List<Alert> put(List<Alert> incoming, Instant now) {
    List<Alert> stored = new ArrayList<>(incoming.size());
    for (Alert alert : incoming) {
      Alert old = alerts.get(alert.fingerprint());
      Alert result = alert;
      if (old != null
          && ((alert.endsAt().isAfter(old.startsAt()) && alert.endsAt().isBefore(old.endsAt()))
              || (alert.startsAt().isAfter(old.startsAt())
                  && alert.startsAt().isBefore(old.endsAt())))) {
        result = old.merge(alert, now);
      }
      alerts.put(result.fingerprint(), result);
      stored.add(result);
    }
    return stored;
  }

  public List<Alert> list() {
    return List.copyOf(alerts.values());
  }

  /** Drops the alerts resolved at {@code now}, as the provider's garbage collection does. */
  public void collectResolved(Instant now) {
    alerts.values().removeIf(alert -> alert.resolvedAt(now));
  }
}
