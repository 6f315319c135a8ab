package dev.firedrill.prometheus;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The {@code data} of a successful query, by {@code resultType}. */
public sealed interface QueryResult {

  record Scalar(Instant at, double value) implements QueryResult {}

  record Text(Instant at, String value) implements QueryResult {}

  record Vector(List<Sample> samples) implements QueryResult {
    public Vector {
      samples = List.copyOf(samples);
    }
  }

  record Matrix(List<Series> series) implements QueryResult {
    public Matrix {
      series = List.copyOf(series);
    }
  }

  record Sample(Map<String, String> labels, Instant at, double value) {
    public Sample {
      labels = Map.copyOf(labels);
    }
  }

  record Point(Instant at, double value) {}

  record Series(Map<String, String> labels, List<Point> points) {
    public Series {
      labels = Map.copyOf(labels);
      points = List.copyOf(points);
    }
  }
}
