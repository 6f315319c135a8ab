package dev.firedrill.http;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * Where a secret (a bearer token, a password) is read from: an environment variable or a file.
 * {@link #describe()} names the place, never the value, so that messages and journals can say it.
 */
public interface Secret {

  /**
   * The secret, read now (a file is read again on every call, so a rotated one is picked up), or
   * empty when none is configured; {@code what} ("a bearer token", "a password") completes
   * messages.
   */
  Optional<String> resolve(Map<String, String> environment, String what) throws IOException;

  /** The place, such as {@code env PROM_TOKEN} or {@code file /run/secrets/token}. */
  String describe();

  /** A value given in code (tests, firedrill's own servers): described as such, never shown. */
  static Secret given(String value) {
    return new Given(value);
  }

  record Given(String value) implements Secret {
    @Override
    public Optional<String> resolve(Map<String, String> environment, String what) {
      return Optional.of(value);
    }

    @Override
    public String describe() {
      return "given";
    }

    @Override
    public String toString() {
      return "Given[<redacted>]";
    }
  }
}
