package dev.firedrill.embedded.rules;

import dev.firedrill.embedded.notify.AlertSink;
import dev.firedrill.embedded.rules.snapshot.AlertSnapshot;
import dev.firedrill.embedded.rules.snapshot.GroupSnapshot;
import dev.firedrill.embedded.storage.Appender;
import dev.firedrill.promql.eval.Compat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The embedded Prometheus's rule groups, evaluated when the caller says what time it is: with
 * {@link #evaluateDue} and {@link #nextDueMs} a virtual clock runs an hour of rules in
 * milliseconds, and the embedded Prometheus's real-time driver calls the same methods as its clock
 * reaches {@link #nextDueMs}.
 */
public final class RuleManager {

  /**
   * @param evaluationIntervalMs the global {@code evaluation_interval}, for groups without their
   *     own
   * @param resendDelayMs how often a firing alert is sent again, Prometheus's {@code
   *     --rules.alert.resend-delay} (1 m by default)
   * @param externalLabels {@code $externalLabels} in templates
   * @param externalUrl {@code $externalURL} in templates and the start of each alert's generatorURL
   * @param compat the Prometheus whose group offsets the groups keep (2.42's and 3.x's hash the
   *     group's file and name differently)
   */
  public record Options(
      long evaluationIntervalMs,
      long resendDelayMs,
      Map<String, String> externalLabels,
      String externalUrl,
      Compat compat) {
    public Options {
      if (evaluationIntervalMs <= 0) {
        throw new IllegalArgumentException(
            "evaluation interval " + evaluationIntervalMs + " ms is not positive");
      }
      if (resendDelayMs < 0) {
        throw new IllegalArgumentException("resend delay " + resendDelayMs + " ms is negative");
      }
      externalLabels = Map.copyOf(externalLabels);
      Objects.requireNonNull(externalUrl, "externalUrl");
      Objects.requireNonNull(compat, "compat");
    }

    /** Scheduled as the default mode's Prometheus schedules groups. */
    public Options(
        long evaluationIntervalMs,
        long resendDelayMs,
        Map<String, String> externalLabels,
        String externalUrl) {
      this(evaluationIntervalMs, resendDelayMs, externalLabels, externalUrl, Compat.defaultMode());
    }

    /** Prometheus's defaults: evaluation every minute, resend every minute. */
    public static Options defaults(String externalUrl) {
      return new Options(60_000, 60_000, Map.of(), externalUrl);
    }
  }

  private final List<RuleGroup> groups = new ArrayList<>();
  private final Options options;
  private final RuleQuery query;
  private final Appender appender;
  private final AlertSink sink;
  private final LongSupplier nanoTime;

  /**
   * @param nanoTime a monotonic reading for evaluation durations (the clock's {@code nanoTime})
   */
  public RuleManager(
      List<RuleGroupSpec> specs,
      Options options,
      RuleQuery query,
      Appender appender,
      AlertSink sink,
      LongSupplier nanoTime) {
    this.options = options;
    this.query = query;
    this.appender = appender;
    this.sink = sink;
    this.nanoTime = nanoTime;
    for (RuleGroupSpec spec : specs) {
      long interval = spec.intervalMs() > 0 ? spec.intervalMs() : options.evaluationIntervalMs();
      List<Rule> rules = new ArrayList<>();
      for (RuleSpec rule : spec.rules()) {
        if (rule instanceof RuleSpec.Alerting alerting) {
          rules.add(new AlertingRule(alerting, options.externalLabels(), options.externalUrl()));
        } else {
          rules.add(new RecordingRule((RuleSpec.Recording) rule));
        }
      }
      groups.add(new RuleGroup(spec, interval, rules, options.compat()));
    }
  }

  /**
   * Evaluates every group whose time has come by {@code nowMs}, each at its own aligned timestamp;
   * the first call only schedules. Returns how many groups were evaluated.
   */
  public int evaluateDue(long nowMs) {
    int evaluated = 0;
    for (RuleGroup group : groups) {
      Long slot = group.due(nowMs).orElse(null);
      if (slot != null) {
        group.evaluate(slot, nowMs, query, appender, sink, options.resendDelayMs(), nanoTime);
        evaluated++;
      }
    }
    return evaluated;
  }

  /** When the next group is due; {@link Long#MIN_VALUE} before the first {@link #evaluateDue}. */
  public long nextDueMs() {
    long next = Long.MAX_VALUE;
    for (RuleGroup group : groups) {
      next = Math.min(next, group.nextEvalMs());
    }
    return next;
  }

  /** Evaluations skipped because the caller came late, over all groups. */
  public long missedIterations() {
    return groups.stream().mapToLong(RuleGroup::missed).sum();
  }

  /** The groups as {@code /api/v1/rules} reports them, in file order. */
  public List<GroupSnapshot> groups() {
    return groups.stream().map(RuleGroup::snapshot).toList();
  }

  /** Pending and firing alerts of every rule, as {@code /api/v1/alerts} reports them. */
  public List<AlertSnapshot> alerts() {
    List<AlertSnapshot> out = new ArrayList<>();
    for (RuleGroup group : groups) {
      for (Rule rule : group.rules()) {
        if (rule instanceof AlertingRule alerting) {
          out.addAll(alerting.activeAlerts());
        }
      }
    }
    return out;
  }
}
