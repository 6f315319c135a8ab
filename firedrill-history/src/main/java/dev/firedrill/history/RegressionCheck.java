package dev.firedrill.history;

import dev.firedrill.time.Durations;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Compares each alert's latest run with its earlier runs of the same experiment (another
 * experiment's fault is another test); rows of simulations, imported when asked, are left out. The
 * baseline for time to detect is the median of the earlier runs in which the alert fired: one slow
 * quarter neither hides nor invents a regression. What a run may take beyond it is the tolerance or
 * what the earlier runs' own spread allows, whichever is larger: identical drills vary by a scrape
 * and an evaluation phase, and a fixed percentage would call that noise a regression.
 */
public final class RegressionCheck {

  static final DateTimeFormatter DATE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);

  /**
   * {@code alerts}: alerts in the history; {@code compared}: those with earlier runs to compare
   * with.
   */
  public record Outcome(List<Regression> regressions, int alerts, int compared, int runs) {
    public Outcome {
      regressions = List.copyOf(regressions);
    }

    public boolean empty() {
      return alerts == 0;
    }
  }

  private RegressionCheck() {}

  /** {@code records}: oldest run first, as {@link HistoryStore#query} returns them. */
  public static Outcome check(List<DetectionRecord> records, Tolerance tolerance) {
    Map<String, List<DetectionRecord>> byAlert = new LinkedHashMap<>();
    for (DetectionRecord r : records) {
      if (r.simulated()) {
        continue; // a prediction is neither a baseline nor a run that can regress
      }
      byAlert.computeIfAbsent(r.experiment() + "\n" + r.alertKey(), k -> new ArrayList<>()).add(r);
    }
    List<Regression> regressions = new ArrayList<>();
    int compared = 0;
    for (List<DetectionRecord> runs : byAlert.values()) {
      if (runs.size() < 2) {
        continue;
      }
      compared++;
      DetectionRecord latest = runs.get(runs.size() - 1);
      List<DetectionRecord> earlier = runs.subList(0, runs.size() - 1);
      stoppedFiring(latest, earlier).ifPresent(regressions::add);
      routing(latest, earlier).ifPresent(regressions::add);
      slower(latest, earlier, tolerance).ifPresent(regressions::add);
    }
    long runCount =
        records.stream().filter(r -> !r.simulated()).map(DetectionRecord::runId).distinct().count();
    return new Outcome(regressions, byAlert.size(), compared, (int) runCount);
  }

  private static Optional<Regression> stoppedFiring(
      DetectionRecord latest, List<DetectionRecord> earlier) {
    long fired = earlier.stream().filter(DetectionRecord::fired).count();
    if (!latest.expectedToFire() || latest.fired() || fired == 0) {
      return Optional.empty();
    }
    return Optional.of(
        new Regression(
            latest.alertKey(),
            latest.experiment(),
            Regression.Kind.STOPPED_FIRING,
            "did not fire in the run of "
                + date(latest.runAt())
                + "; fired in "
                + fired
                + " of "
                + earlier.size()
                + " earlier run"
                + plural(earlier.size())));
  }

  private static Optional<Regression> routing(
      DetectionRecord latest, List<DetectionRecord> earlier) {
    String seen =
        latest.receivers().isEmpty() ? "no receiver seen" : "routed to " + latest.receiversText();
    if (latest.misrouted()) {
      return Optional.of(
          new Regression(
              latest.alertKey(),
              latest.experiment(),
              Regression.Kind.MISROUTED,
              seen
                  + latest.expectedReceiver().map(e -> ", expected " + e).orElse("")
                  + " (run of "
                  + date(latest.runAt())
                  + ")"));
    }
    // Routed as the experiment expects is right, whatever an earlier (misrouted) run did.
    if (latest.receivers().isEmpty() || DetectionRecord.ROUTED_RIGHT.equals(latest.routing())) {
      return Optional.empty();
    }
    Optional<DetectionRecord> before =
        earlier.stream()
            .filter(r -> !r.receivers().isEmpty() && !r.misrouted())
            .reduce((first, second) -> second);
    if (before.isEmpty() || before.get().receiversText().equals(latest.receiversText())) {
      return Optional.empty();
    }
    return Optional.of(
        new Regression(
            latest.alertKey(),
            latest.experiment(),
            Regression.Kind.ROUTING_CHANGED,
            seen
                + " in the run of "
                + date(latest.runAt())
                + ", to "
                + before.get().receiversText()
                + " in the run of "
                + date(before.get().runAt())));
  }

  private static Optional<Regression> slower(
      DetectionRecord latest, List<DetectionRecord> earlier, Tolerance tolerance) {
    List<Duration> times =
        earlier.stream()
            .filter(DetectionRecord::fired)
            .flatMap(r -> r.timeToDetect().stream())
            .sorted()
            .toList();
    if (!latest.expectedToFire()
        || !latest.fired()
        || latest.timeToDetect().isEmpty()
        || times.isEmpty()) {
      return Optional.empty();
    }
    Duration baseline = median(times);
    Duration byTolerance = tolerance.allowed(baseline);
    Duration bySpread = spreadAllowance(times, baseline);
    boolean spreadWins = bySpread.compareTo(byTolerance) > 0;
    Duration allowed = spreadWins ? bySpread : byTolerance;
    Duration now = latest.timeToDetect().get();
    if (now.compareTo(allowed) <= 0) {
      return Optional.empty();
    }
    return Optional.of(
        new Regression(
            latest.alertKey(),
            latest.experiment(),
            Regression.Kind.SLOWER,
            Durations.seconds(now)
                + " in the run of "
                + date(latest.runAt())
                + ", over the "
                + Durations.seconds(allowed)
                + " allowed: median "
                + Durations.seconds(baseline)
                + " of "
                + times.size()
                + " earlier run"
                + plural(times.size())
                + (spreadWins
                    ? " plus three times their spread ("
                        + Durations.seconds(times.get(0))
                        + " to "
                        + Durations.seconds(times.get(times.size() - 1))
                        + ", a deviation of "
                        + Durations.seconds(
                            Duration.ofNanos((long) (spread(times, baseline) * 1e9)))
                        + "), wider than "
                        + tolerance.text()
                    : " plus " + tolerance.text())));
  }

  /** Fewer earlier runs than this have no spread to speak of: the tolerance alone decides. */
  static final int SPREAD_RUNS = 3;

  /**
   * The baseline plus three robust standard deviations of the earlier runs: the median absolute
   * deviation scaled to a normal distribution's, so one wild run neither widens it much nor hides a
   * regression. Zero extra below {@link #SPREAD_RUNS} runs.
   */
  static Duration spreadAllowance(List<Duration> sorted, Duration baseline) {
    if (sorted.size() < SPREAD_RUNS) {
      return baseline;
    }
    return baseline.plusNanos((long) (3 * spread(sorted, baseline) * 1e9));
  }

  /** The median absolute deviation from {@code baseline} times 1.4826, in seconds. */
  private static double spread(List<Duration> times, Duration baseline) {
    List<Duration> deviations = times.stream().map(t -> t.minus(baseline).abs()).sorted().toList();
    return 1.4826 * median(deviations).toNanos() / 1e9;
  }

  static Duration median(List<Duration> sorted) {
    int n = sorted.size();
    return n % 2 == 1
        ? sorted.get(n / 2)
        : sorted.get(n / 2 - 1).plus(sorted.get(n / 2)).dividedBy(2);
  }

  static String date(Instant at) {
    return DATE.format(at);
  }

  private static String plural(long n) {
    return n == 1 ? "" : "s";
  }
}
