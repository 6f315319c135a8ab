package dev.firedrill.promql.eval;

import dev.firedrill.promql.model.LabelSet;
import java.util.Arrays;

/**
 * An instant vector at one evaluation step, as parallel arrays reused from step to step: sample i
 * has {@code labels[i]} and {@code values[i]}, and came from input series {@code series[i]}; in an
 * operation's output, the input series whose labels alone decide the sample's labels, else -1.
 */
final class StepVector {

  LabelSet[] labels;
  double[] values;
  int[] series;
  int size;

  StepVector(int capacity) {
    int c = Math.max(capacity, 4);
    labels = new LabelSet[c];
    values = new double[c];
    series = new int[c];
  }

  void clear() {
    size = 0;
  }

  void add(LabelSet label, double value, int seriesIndex) {
    if (size == labels.length) {
      labels = Arrays.copyOf(labels, size * 2);
      values = Arrays.copyOf(values, size * 2);
      series = Arrays.copyOf(series, size * 2);
    }
    labels[size] = label;
    values[size] = value;
    series[size] = seriesIndex;
    size++;
  }
}
