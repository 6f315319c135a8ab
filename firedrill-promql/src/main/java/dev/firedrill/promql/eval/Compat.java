package dev.firedrill.promql.eval;

import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.parse.PromqlParser;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which Prometheus the engine answers as. The two differ in the grammar they read and in where a
 * window begins: Prometheus 2 takes a range selector's, the lookback's and a subquery's window
 * closed at both ends ({@code [t - range, t]}); Prometheus 3 leaves them open at the start ({@code
 * (t - range, t]}), so a sample exactly one range old no longer counts. Passed to each query, never
 * held globally, so one JVM can answer as both.
 */
public enum Compat {
  /** Prometheus v2.42: its grammar and closed windows. */
  PROMETHEUS_2(2, PromqlParser.Syntax.PROMETHEUS_2_42),
  /** Prometheus 3.x: its grammar (UTF-8 names, duration expressions, ...) and left-open windows. */
  PROMETHEUS_3(3, PromqlParser.Syntax.PROMETHEUS_3);

  private static final Pattern VERSION = Pattern.compile("v?(\\d+)\\.\\d+.*");

  /**
   * The labels that describe what a series measures (Prometheus's {@code schema.IsMetadataLabel}):
   * its name, and the type and unit labels.
   */
  private static final Set<String> METADATA = Set.of(LabelSet.METRIC_NAME, "__type__", "__unit__");

  private final int major;
  private final PromqlParser.Syntax syntax;

  Compat(int major, PromqlParser.Syntax syntax) {
    this.major = major;
    this.syntax = syntax;
  }

  /** The mode when none is asked for: Prometheus 3, what most users run. */
  public static Compat defaultMode() {
    return PROMETHEUS_3;
  }

  /**
   * The mode of a major version, as {@code --compat 2|3} names it.
   *
   * @throws IllegalArgumentException naming the value and the expectation
   */
  public static Compat ofMajor(int major) {
    for (Compat c : values()) {
      if (c.major == major) {
        return c;
      }
    }
    throw new IllegalArgumentException(
        "compatibility mode " + major + " is not one of 2 or 3 (the Prometheus major version)");
  }

  /**
   * The mode of a Prometheus version as {@code /api/v1/status/buildinfo} gives it ({@code
   * 2.42.0+ds}, {@code 3.5.3}); empty for any other (a fork's, firedrill's own).
   */
  public static Optional<Compat> ofVersion(String version) {
    Matcher m = VERSION.matcher(version.strip());
    if (!m.matches()) {
      return Optional.empty();
    }
    for (Compat c : values()) {
      if (String.valueOf(c.major).equals(m.group(1))) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  public int major() {
    return major;
  }

  /** The grammar queries and rules are read in. */
  public PromqlParser.Syntax syntax() {
    return syntax;
  }

  /** Whether a sample at {@code t} lies inside a window that begins at {@code windowStart}. */
  public boolean afterWindowStart(long t, long windowStart) {
    return this == PROMETHEUS_3 ? t > windowStart : t >= windowStart;
  }

  /**
   * A series' labels once an operation has changed what its values mean (arithmetic, a function of
   * its values): without the metric name, and in Prometheus 3 also without the {@code __type__} and
   * {@code __unit__} labels, which describe the name (3.x's engine drops them whether or not its
   * {@code type-and-unit-labels} feature, which adds them on scrape, is on). Prometheus 2 knows
   * them as ordinary labels and keeps them.
   */
  public LabelSet withoutName(LabelSet labels) {
    if (this == PROMETHEUS_2) {
      return labels.withoutMetricName();
    }
    for (String name : METADATA) {
      if (labels.has(name)) {
        return labels.drop(METADATA);
      }
    }
    return labels;
  }
}
