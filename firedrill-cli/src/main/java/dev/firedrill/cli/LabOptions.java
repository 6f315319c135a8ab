package dev.firedrill.cli;

import dev.firedrill.net.HostPort;
import dev.firedrill.time.Durations;
import java.net.InetSocketAddress;
import java.time.Duration;

/** Parsing of the lab commands' option values into one-line user errors (exit 2). */
final class LabOptions {

  static final Duration MAX_LIFETIME = Duration.ofDays(7);

  private LabOptions() {}

  static InetSocketAddress address(String command, String option, String value) {
    try {
      return HostPort.parse(value);
    } catch (IllegalArgumentException e) {
      throw new UserError(
          "firedrill "
              + command
              + ": "
              + option
              + " "
              + value
              + " is not usable (expected HOST:PORT with an IP address or localhost, such as 127.0.0.1:9000)",
          ExitCode.INVALID);
    }
  }

  static Duration duration(String command, String option, String value, Duration max) {
    Duration duration;
    try {
      duration = Durations.parse(value);
    } catch (IllegalArgumentException e) {
      throw new UserError(
          "firedrill "
              + command
              + ": "
              + option
              + " "
              + value
              + " is not a duration (expected such as 300ms, 5s, 10m or 24h)",
          ExitCode.INVALID);
    }
    if (duration.compareTo(max) > 0) {
      throw new UserError(
          "firedrill "
              + command
              + ": "
              + option
              + " "
              + value
              + " is above the limit (expected at most "
              + Durations.format(max)
              + ")",
          ExitCode.INVALID);
    }
    return duration;
  }

  static Duration positive(String command, String option, String value, Duration max) {
    Duration duration = duration(command, option, value, max);
    if (duration.isZero()) {
      throw new UserError(
          "firedrill "
              + command
              + ": "
              + option
              + " "
              + value
              + " is not usable (expected more than 0)",
          ExitCode.INVALID);
    }
    return duration;
  }

  /** A domain refusal (an {@link IllegalArgumentException}'s one-line message) as a user error. */
  static UserError refused(String command, IllegalArgumentException e) {
    return new UserError("firedrill " + command + ": " + e.getMessage(), ExitCode.INVALID, e);
  }
}
