package dev.firedrill.promql.conformance;

import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.SeriesSource;
import dev.firedrill.promql.model.StoredSeries;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The series a test script loads, in memory; a later sample at the same time replaces the earlier.
 */
final class MemorySeriesSource implements SeriesSource {

  private final Map<LabelSet, NavigableMap<Long, Double>> series = new TreeMap<>();

  void add(LabelSet labels, long timestampMs, double value) {
    series.computeIfAbsent(labels, l -> new TreeMap<>()).put(timestampMs, value);
  }

  void clear() {
    series.clear();
  }

  @Override
  public List<StoredSeries> select(List<LabelMatcher> matchers, long minTimeMs, long maxTimeMs) {
    List<StoredSeries> result = new ArrayList<>();
    for (Map.Entry<LabelSet, NavigableMap<Long, Double>> e : series.entrySet()) {
      if (!matchers.stream().allMatch(m -> m.matches(e.getKey().get(m.name())))) {
        continue;
      }
      NavigableMap<Long, Double> samples = e.getValue().subMap(minTimeMs, true, maxTimeMs, true);
      if (samples.isEmpty()) {
        continue;
      }
      long[] t = new long[samples.size()];
      double[] v = new double[samples.size()];
      int i = 0;
      for (Map.Entry<Long, Double> s : samples.entrySet()) {
        t[i] = s.getKey();
        v[i] = s.getValue();
        i++;
      }
      result.add(new StoredSeries(e.getKey(), t, v, i));
    }
    return result;
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
