package dev.firedrill.embedded.alertmanager.dispatch;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Alertmanager's notification log, alone (no gossip): per webhook and group, what was last
 * notified, and when.
 */
final class NotificationLog {

  /**
   * The alerts (by fingerprint) firing and resolved at the last notification, and when it was
   * logged.
   */
  record Entry(Set<Long> firing, Set<Long> resolved, Instant timestamp) {
    Entry {
      firing = Set.copyOf(firing);
      resolved = Set.copyOf(resolved);
    }
  }

  private final Map<String, Entry> entries = new HashMap<>();

  Entry get(String receiver, int integration, String groupKey) {
    return entries.get(key(receiver, integration, groupKey));
  }

  void log(
      String receiver,
      int integration,
      String groupKey,
      Set<Long> firing,
      Set<Long> resolved,
      Instant at) {
    entries.put(key(receiver, integration, groupKey), new Entry(firing, resolved, at));
  }

  /**
   * The dedup stage's {@code needsUpdate}: a first notification when something fires; again when an
   * alert fires that was not notified, when all have resolved after some were notified firing, when
   * (with {@code send_resolved}) one resolved since, or when {@code repeat_interval} has passed.
   */
  static boolean needsUpdate(
      Entry entry,
      Set<Long> firing,
      Set<Long> resolved,
      boolean sendResolved,
      java.time.Duration repeat,
      Instant now) {
    if (entry == null) {
      return !firing.isEmpty();
    }
    if (!entry.firing().containsAll(firing)) {
      return true;
    }
    if (firing.isEmpty()) {
      return !entry.firing().isEmpty();
    }
    if (sendResolved && !entry.resolved().containsAll(resolved)) {
      return true;
    }
    return entry.timestamp().isBefore(now.minus(repeat));
  }

  private static String key(String receiver, int integration, String groupKey) {
    // The receiver's name cannot hold a newline in a usable config; the separator keeps keys apart.
    return receiver + "\n" + integration + "\n" + groupKey;
  }
}
