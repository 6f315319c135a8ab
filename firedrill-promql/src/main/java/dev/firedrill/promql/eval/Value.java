package dev.firedrill.promql.eval;

import dev.firedrill.promql.model.LabelSet;
import java.util.List;

/** A query's result, by PromQL type. Timestamps are milliseconds. */
public sealed interface Value {

  record Scalar(long timestampMs, double value) implements Value {}

  record Text(long timestampMs, String value) implements Value {}

  record Sample(LabelSet labels, long timestampMs, double value) {}

  record Vector(List<Sample> samples) implements Value {
    public Vector {
      samples = List.copyOf(samples);
    }
  }

  /** One series of a matrix: {@code timestampsMs[i]} carries {@code values[i]}, in time order. */
  record Series(LabelSet labels, long[] timestampsMs, double[] values) {}

  record Matrix(List<Series> series) implements Value {
    public Matrix {
      series = List.copyOf(series);
    }
  }
}
