package dev.firedrill.promql.conformance;

import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.SeriesSource;
import dev.firedrill.promql.model.StoredSeries;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The series a test script loads, in memory; a later sample at the same time replaces the earlier.
 * Samples may carry start timestamps. The times of native histogram samples, which this source
 * cannot hold, are kept to tell whether a case read one: a select touching one while {@link #watch}
 * is on is noted.
 */
final class MemorySeriesSource implements SeriesSource {

  private final Map<LabelSet, NavigableMap<Long, Double>> series = new TreeMap<>();
  private final Map<LabelSet, NavigableMap<Long, Long>> startTimes = new TreeMap<>();
  private final Map<LabelSet, NavigableSet<Long>> histogramTimes = new TreeMap<>();
  private boolean watching;
  private boolean readHistogram;

  void add(LabelSet labels, long timestampMs, double value) {
    series.computeIfAbsent(labels, l -> new TreeMap<>()).put(timestampMs, value);
  }

  /** A sample with its start timestamp (0: unknown). */
  void add(LabelSet labels, long timestampMs, double value, long startTimestampMs) {
    add(labels, timestampMs, value);
    startTimes.computeIfAbsent(labels, l -> new TreeMap<>()).put(timestampMs, startTimestampMs);
  }

  void addHistogramTime(LabelSet labels, long timestampMs) {
    histogramTimes.computeIfAbsent(labels, l -> new TreeSet<>()).add(timestampMs);
  }

  void clear() {
    series.clear();
    startTimes.clear();
    histogramTimes.clear();
  }

  /**
   * Starts (forgetting what was noted) or stops noting whether a select reads a native histogram
   * sample: on for a case's own query, off for its range and {@code @} checks, which read past its
   * time.
   */
  void watch(boolean on) {
    if (on) {
      readHistogram = false;
    }
    watching = on;
  }

  boolean readHistogram() {
    return readHistogram;
  }

  @Override
  public List<StoredSeries> select(List<LabelMatcher> matchers, long minTimeMs, long maxTimeMs) {
    for (Map.Entry<LabelSet, NavigableSet<Long>> e : histogramTimes.entrySet()) {
      if (watching
          && !readHistogram
          && matches(matchers, e.getKey())
          && !e.getValue().subSet(minTimeMs, true, maxTimeMs, true).isEmpty()) {
        readHistogram = true;
      }
    }
    List<StoredSeries> result = new ArrayList<>();
    for (Map.Entry<LabelSet, NavigableMap<Long, Double>> e : series.entrySet()) {
      if (!matches(matchers, e.getKey())) {
        continue;
      }
      NavigableMap<Long, Double> samples = e.getValue().subMap(minTimeMs, true, maxTimeMs, true);
      if (samples.isEmpty()) {
        continue;
      }
      NavigableMap<Long, Long> sts = startTimes.get(e.getKey());
      long[] t = new long[samples.size()];
      double[] v = new double[samples.size()];
      long[] st = sts == null ? null : new long[samples.size()];
      int i = 0;
      for (Map.Entry<Long, Double> s : samples.entrySet()) {
        t[i] = s.getKey();
        v[i] = s.getValue();
        if (st != null) {
          st[i] = sts.getOrDefault(s.getKey(), 0L);
        }
        i++;
      }
      result.add(new StoredSeries(e.getKey(), t, v, i, st));
    }
    return result;
  }

  private static boolean matches(List<LabelMatcher> matchers, LabelSet labels) {
    return matchers.stream().allMatch(m -> m.matches(labels.get(m.name())));
  }

  @Override
  public List<String> labelNames(List<LabelMatcher> matchers, long minTimeMs, long maxTimeMs) {
    TreeSet<String> names = new TreeSet<>();
    for (StoredSeries s : select(matchers, minTimeMs, maxTimeMs)) {
      names.addAll(s.labels().names());
    }
    return new ArrayList<>(names);
  }
}
