package dev.firedrill.lab.trace;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * A W3C trace context {@code traceparent}: {@code 00-<32 hex trace id>-<16 hex parent id>-<2 hex
 * flags>}.
 *
 * @param traceId 32 lower-case hex digits, not all zero
 * @param parentId 16 lower-case hex digits, not all zero: the span of the caller
 * @param flags 2 hex digits ({@code 01} sampled)
 */
public record TraceParent(String traceId, String parentId, String flags) {

  public static final String HEADER = "traceparent";
  private static final Pattern TRACE = Pattern.compile("[0-9a-f]{32}");
  private static final Pattern SPAN = Pattern.compile("[0-9a-f]{16}");
  private static final Pattern FLAGS = Pattern.compile("[0-9a-f]{2}");

  public TraceParent {
    if (traceId == null
        || !TRACE.matcher(traceId).matches()
        || traceId.chars().allMatch(c -> c == '0')) {
      throw new IllegalArgumentException(
          "trace id \""
              + traceId
              + "\" is not usable (expected 32 lower-case hex digits, not all zero)");
    }
    if (parentId == null
        || !SPAN.matcher(parentId).matches()
        || parentId.chars().allMatch(c -> c == '0')) {
      throw new IllegalArgumentException(
          "parent id \""
              + parentId
              + "\" is not usable (expected 16 lower-case hex digits, not all zero)");
    }
    if (flags == null || !FLAGS.matcher(flags).matches()) {
      throw new IllegalArgumentException(
          "trace flags \"" + flags + "\" are not usable (expected 2 lower-case hex digits)");
    }
  }

  /** A new trace, sampled. */
  public static TraceParent newRoot() {
    return new TraceParent(randomHex(16), randomHex(8), "01");
  }

  /** The header's value. */
  public String header() {
    return "00-" + traceId + "-" + parentId + "-" + flags;
  }

  private static String randomHex(int bytes) {
    byte[] random = new byte[bytes];
    do {
      ThreadLocalRandom.current().nextBytes(random);
    } while (allZero(random));
    return HexFormat.of().formatHex(random);
  }

  private static boolean allZero(byte[] bytes) {
    for (byte b : bytes) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }
}
