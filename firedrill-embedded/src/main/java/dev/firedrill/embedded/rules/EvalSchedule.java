package dev.firedrill.embedded.rules;

import dev.firedrill.promql.model.XxHash64;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * When a group evaluates, as Prometheus schedules it: on multiples of the interval shifted by a
 * per-group offset, {@code hash(file, name) mod interval}, so groups spread over the interval
 * rather than all evaluating at once. The hash is Prometheus 2.x's {@code labels.Hash} of {@code
 * {file, name}} (XXH64 of {@code file\xffFILE\xffname\xffNAME\xff}), computed in nanoseconds and
 * cut to milliseconds, so a group's evaluation times match those the same file path and group name
 * get in Prometheus to the millisecond.
 */
final class EvalSchedule {

  private final long intervalMs;
  private final long offsetMs;

  EvalSchedule(String file, String name, long intervalMs) {
    this.intervalMs = intervalMs;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (String part : new String[] {"file", file, "name", name}) {
      bytes.writeBytes(part.getBytes(StandardCharsets.UTF_8));
      bytes.write(0xff);
    }
    long intervalNs = intervalMs * 1_000_000L;
    this.offsetMs =
        Long.remainderUnsigned(XxHash64.hash(bytes.toByteArray()), intervalNs) / 1_000_000L;
  }

  long offsetMs() {
    return offsetMs;
  }

  /** The latest evaluation time at or before {@code nowMs}, Prometheus's {@code EvalTimestamp}. */
  long slotAtOrBefore(long nowMs) {
    long adjusted = nowMs - offsetMs;
    return adjusted - Math.floorMod(adjusted, intervalMs) + offsetMs;
  }
}
