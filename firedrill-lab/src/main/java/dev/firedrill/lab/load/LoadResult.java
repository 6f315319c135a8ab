package dev.firedrill.lab.load;

import dev.firedrill.net.Loopback;
import dev.firedrill.time.Durations;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a run did.
 *
 * @param plan the plan
 * @param sent requests sent
 * @param unsent requests due that were never sent: the run was stopped, or no in-flight slot freed
 *     up before the run's hard end (duration + timeout)
 * @param unfinished requests sent whose outcome had not come when the run gave up waiting
 * @param outcomes requests by outcome
 * @param achievedRate requests sent ÷ (last send − start + one interval): the target rate when
 *     every request left on time, less when sends fell behind
 * @param p50 median latency from the intended send time, over every outcome
 * @param p99 99th percentile of the same
 * @param max the largest of the same
 * @param sendLagP99 99th percentile of how late requests left compared with their intended time
 * @param sendLagMax the largest such lag
 * @param stopped why the run stopped early, or empty
 */
public record LoadResult(
    LoadPlan plan,
    long sent,
    long unsent,
    long unfinished,
    Map<Outcome, Long> outcomes,
    double achievedRate,
    Duration p50,
    Duration p99,
    Duration max,
    Duration sendLagP99,
    Duration sendLagMax,
    String stopped) {

  public LoadResult {
    outcomes = Map.copyOf(new EnumMap<>(outcomes));
  }

  public long count(Outcome outcome) {
    return outcomes.getOrDefault(outcome, 0L);
  }

  /** The summary a person reads at the end of a run. */
  public List<String> summary() {
    return List.of(
        String.format(
            Locale.ROOT,
            "load: %s %s, %s/s for %s: %d requests planned, at most %d in flight",
            plan.method(),
            Loopback.safe(plan.url()),
            number(plan.rate()),
            Durations.format(plan.duration()),
            plan.totalRequests(),
            plan.maxInFlight()),
        String.format(
            Locale.ROOT,
            "rate: target %s/s, achieved %s/s; sent %d, unsent %d, unfinished %d%s",
            number(plan.rate()),
            number(achievedRate),
            sent,
            unsent,
            unfinished,
            stopped.isEmpty() ? "" : " (stopped: " + stopped + ")"),
        String.format(
            Locale.ROOT,
            "outcomes: ok %d, error %d, timeout %d, refused %d",
            count(Outcome.OK),
            count(Outcome.ERROR),
            count(Outcome.TIMEOUT),
            count(Outcome.REFUSED)),
        String.format(
            Locale.ROOT,
            "latency from the intended send time: p50 %s, p99 %s, max %s; send lag p99 %s, max %s",
            millis(p50),
            millis(p99),
            millis(max),
            millis(sendLagP99),
            millis(sendLagMax)));
  }

  private static String number(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? Long.toString((long) value)
        : String.format(Locale.ROOT, "%.1f", value);
  }

  private static String millis(Duration duration) {
    return String.format(Locale.ROOT, "%.1fms", duration.toNanos() / 1e6);
  }
}
