package dev.firedrill.killmatrix;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * Where in a drill a trial aims its SIGKILL: the moment the journal shows the phase has begun, plus
 * a seeded random delay of up to {@code spread}. The drill's own pace decides where the kill lands;
 * {@link Phase#of} reads that from the journal afterwards.
 */
enum KillPoint {
  BEFORE_INJECTION(j -> true, Duration.ofMillis(900)),
  /** The first fault whose journal entry says it is starting and not yet started: at once. */
  MID_INJECT(KillPoint::injecting, Duration.ZERO),
  DURING_OBSERVE(j -> j.has("injected_at") && allInjected(j), KillMatrix.DURATION),
  /** Fault 1 is reverted first (the rollback goes in reverse order); fault 0 is still on. */
  DURING_ROLLBACK_OF_THE_FIRST(j -> j.has("rollback_at"), Duration.ofMillis(60)),
  /** At once: a healthy system recovers at the first measurement after the rollback. */
  DURING_RECOVERY(j -> j.has("rollback_done_at"), Duration.ZERO),
  DURING_THE_WAIT_FOR_ALERTS(j -> j.has("recovered_at"), Duration.ofMillis(1500));

  final Predicate<JsonNode> reached;
  final Duration spread;

  KillPoint(Predicate<JsonNode> reached, Duration spread) {
    this.reached = reached;
    this.spread = spread;
  }

  private static boolean injecting(JsonNode journal) {
    for (JsonNode fault : journal.path("faults")) {
      if (fault.has("started_at") && !fault.has("injected_at")) {
        return true;
      }
    }
    return false;
  }

  private static boolean allInjected(JsonNode journal) {
    JsonNode faults = journal.path("faults");
    if (faults.size() == 0) {
      return false;
    }
    for (JsonNode fault : faults) {
      if (!fault.has("injected_at")) {
        return false;
      }
    }
    return true;
  }

  /** Where a kill landed, read from the journal as it was left. */
  enum Phase {
    BEFORE_INJECTION("before injection"),
    MID_INJECT("between starting and started"),
    OBSERVE("during observe"),
    ROLLBACK("during the rollback"),
    RECOVERY("during recovery"),
    ALERT_WAIT("during the wait for alerts"),
    FINISHED("after the verdict");

    final String words;

    Phase(String words) {
      this.words = words;
    }

    static Phase of(JsonNode journal) {
      if (journal.has("verdict")) {
        return FINISHED;
      }
      if (journal.has("recovered_at")) {
        return ALERT_WAIT;
      }
      if (journal.has("rollback_done_at")) {
        return RECOVERY;
      }
      if (journal.has("rollback_at")) {
        return ROLLBACK;
      }
      if (allInjected(journal)) {
        return OBSERVE;
      }
      for (JsonNode fault : journal.path("faults")) {
        if (fault.has("started_at")) {
          return MID_INJECT;
        }
      }
      return BEFORE_INJECTION;
    }
  }
}
