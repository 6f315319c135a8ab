package dev.firedrill.embedded.rules;

import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.model.XxHash64;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * When a group evaluates, as Prometheus schedules it: on multiples of the interval shifted by a
 * per-group offset, {@code hash(file, name) mod interval}, so groups spread over the interval
 * rather than all evaluating at once. The hash is Prometheus's {@code labels.Hash} of {@code {file,
 * name}}, computed in nanoseconds and cut to milliseconds, so a group's evaluation times match
 * those the same file path and group name get in Prometheus to the millisecond. The two majors hash
 * different bytes, as their label sets are laid out differently: 2.42 hashes {@code
 * file\xffFILE\xffname\xffNAME\xff}; 3.x, built with stringlabels, hashes the packed set, each
 * string after its length (one byte below 255, else 255 and three bytes little-endian). Both were
 * checked against Debian's 2.42 and 3.5.3 binaries.
 */
final class EvalSchedule {

  private final long intervalMs;
  private final long offsetMs;

  EvalSchedule(String file, String name, long intervalMs, Compat compat) {
    this.intervalMs = intervalMs;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (String part : new String[] {"file", file, "name", name}) {
      byte[] utf8 = part.getBytes(StandardCharsets.UTF_8);
      if (compat == Compat.PROMETHEUS_2) {
        bytes.writeBytes(utf8);
        bytes.write(0xff);
      } else {
        writeLength(bytes, utf8.length);
        bytes.writeBytes(utf8);
      }
    }
    long intervalNs = intervalMs * 1_000_000L;
    this.offsetMs =
        Long.remainderUnsigned(XxHash64.hash(bytes.toByteArray()), intervalNs) / 1_000_000L;
  }

  private static void writeLength(ByteArrayOutputStream bytes, int length) {
    if (length < 255) {
      bytes.write(length);
      return;
    }
    bytes.write(255);
    bytes.write(length & 0xff);
    bytes.write((length >>> 8) & 0xff);
    bytes.write((length >>> 16) & 0xff);
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
