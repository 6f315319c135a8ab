package dev.firedrill.proxy;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A toxic as added through the admin API: it acts on {@code toxicity} of the requests until its ttl
 * ends.
 */
public record Toxic(
    String name, ToxicKind kind, ToxicStream stream, double toxicity, Duration ttl) {

  static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,200}");

  public Toxic {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(stream, "stream");
    Objects.requireNonNull(ttl, "ttl");
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "toxic name must be 1 to 200 letters, digits, '.', '_' or '-'");
    }
    if (!(toxicity >= 0 && toxicity <= 1)) {
      throw new IllegalArgumentException("toxicity must lie in [0, 1]");
    }
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("ttl must be longer than 0");
    }
  }

  /** Toxiproxy's default name: {@code <type>_<stream>}. */
  static String defaultName(ToxicKind kind, ToxicStream stream) {
    return kind.type() + "_" + stream.wireName();
  }

  public String type() {
    return kind.type();
  }
}
