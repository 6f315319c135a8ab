package dev.firedrill.cli;

import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.promql.eval.Compat;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code --compat 2|3}, the PromQL mode of an embedded Prometheus, shared by {@code prometheus},
 * {@code simulate}, {@code demo} and {@code lab up}; and, for {@code simulate} without it, the mode
 * of the live Prometheus the drill names.
 */
final class CompatOption {

  static final String DESCRIPTION =
      "Which Prometheus major version's PromQL the embedded Prometheus answers as: 3 (left-open"
          + " windows, the 3.x grammar) or 2 (v2.42's)";

  private CompatOption() {}

  /** The mode, or one line naming {@code command}'s bad value and exit 2. */
  static Compat parse(String command, int major) {
    try {
      return Compat.ofMajor(major);
    } catch (IllegalArgumentException e) {
      throw new UserError(
          "firedrill "
              + command
              + ": --compat "
              + major
              + " is not usable (expected 2 or 3, the Prometheus major version to answer as)",
          ExitCode.INVALID,
          e);
    }
  }

  /** A mode and the words saying where it came from. */
  record Choice(Compat compat, String why) {
    String describe() {
      return "PromQL of Prometheus " + compat.major() + " (" + why + ")";
    }
  }

  /**
   * {@code --compat} when given; else the major version of the Prometheus {@code live} reaches, by
   * its {@code /api/v1/status/buildinfo}; else the default, saying why.
   */
  static Choice choose(String command, Integer flag, Supplier<HttpPrometheusClient> live) {
    if (flag != null) {
      return new Choice(parse(command, flag), "--compat " + flag);
    }
    Compat fallback = Compat.defaultMode();
    HttpPrometheusClient client;
    try {
      client = live.get();
    } catch (UserError e) {
      return new Choice(fallback, "the default: " + e.getMessage());
    }
    String version;
    try {
      version = client.buildVersion();
    } catch (PrometheusException e) {
      return new Choice(
          fallback,
          "the default; no version from "
              + client.server()
              + "/api/v1/status/buildinfo: "
              + e.getMessage());
    }
    Optional<Compat> found = Compat.ofVersion(version);
    return found
        .map(
            c ->
                new Choice(
                    c,
                    "as "
                        + client.server()
                        + " is Prometheus "
                        + version.strip()
                        + " by its /api/v1/status/buildinfo"))
        .orElseGet(
            () ->
                new Choice(
                    fallback,
                    "the default; "
                        + client.server()
                        + "/api/v1/status/buildinfo says version "
                        + version.strip()
                        + ", not a Prometheus 2.x or 3.x"));
  }
}
