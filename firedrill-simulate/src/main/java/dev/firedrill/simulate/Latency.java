package dev.firedrill.simulate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A latency distribution as weighted points (seconds, weight summing to 1): a uniform jitter is a
 * handful of evenly spaced points, so that sums of two attempts stay exact enough for histogram
 * buckets while every counter the model writes is an expected value, the same on every run.
 */
public record Latency(List<Point> points) {

  /** How many points a uniform spread becomes; odd, so the centre is one of them. */
  static final int SPREAD_POINTS = 11;

  public record Point(double seconds, double weight) {}

  public Latency {
    points = List.copyOf(points);
    if (points.isEmpty()) {
      throw new IllegalArgumentException("a latency distribution needs at least one point");
    }
  }

  /** {@code base} plus or minus up to {@code jitter}, uniformly; never below zero. */
  public static Latency uniform(Duration base, Duration jitter) {
    Objects.requireNonNull(base, "base");
    double centre = base.toNanos() / 1e9;
    double spread = jitter.toNanos() / 1e9;
    if (spread == 0) {
      return new Latency(List.of(new Point(centre, 1)));
    }
    List<Point> points = new ArrayList<>();
    for (int i = 0; i < SPREAD_POINTS; i++) {
      double at = centre - spread + 2 * spread * i / (SPREAD_POINTS - 1);
      points.add(new Point(Math.max(0, at), 1.0 / SPREAD_POINTS));
    }
    return new Latency(points);
  }

  public static Latency fixed(double seconds) {
    return new Latency(List.of(new Point(seconds, 1)));
  }

  /** The share of requests that take at most {@code seconds}: a histogram bucket's share. */
  public double atMost(double seconds) {
    double share = 0;
    for (Point p : points) {
      if (p.seconds <= seconds) {
        share += p.weight;
      }
    }
    return share;
  }

  public Latency plus(double seconds) {
    return new Latency(points.stream().map(p -> new Point(p.seconds + seconds, p.weight)).toList());
  }

  /** The time of two steps taken one after the other. */
  public Latency then(Latency next) {
    List<Point> out = new ArrayList<>();
    for (Point a : points) {
      for (Point b : next.points) {
        out.add(new Point(a.seconds + b.seconds, a.weight * b.weight));
      }
    }
    return new Latency(out);
  }
}
