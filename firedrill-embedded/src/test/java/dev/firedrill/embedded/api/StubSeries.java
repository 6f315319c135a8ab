package dev.firedrill.embedded.api;

import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.SeriesSource;
import dev.firedrill.promql.model.StoredSeries;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** Series held in a list, selected as the storage contract says. */
final class StubSeries implements SeriesSource {

  private final List<StoredSeries> all = new ArrayList<>();

  StubSeries add(LabelSet labels, long... timestampsMs) {
    double[] values = new double[timestampsMs.length];
    all.add(new StoredSeries(labels, timestampsMs, values, timestampsMs.length));
    all.sort((a, b) -> a.labels().compareTo(b.labels()));
    return this;
  }

  @Override
  public List<StoredSeries> select(List<LabelMatcher> matchers, long minTimeMs, long maxTimeMs) {
    List<StoredSeries> selected = new ArrayList<>();
    for (StoredSeries series : all) {
      boolean inRange = false;
      for (int i = 0; i < series.count(); i++) {
        inRange |= series.timestamps()[i] >= minTimeMs && series.timestamps()[i] <= maxTimeMs;
      }
      if (inRange && matchers.stream().allMatch(m -> m.matches(series.labels().get(m.name())))) {
        selected.add(series);
      }
    }
    return selected;
  }

  @Override
  public List<String> labelNames(List<LabelMatcher> matchers, long minTimeMs, long maxTimeMs) {
    TreeSet<String> names = new TreeSet<>();
    select(matchers, minTimeMs, maxTimeMs).forEach(s -> names.addAll(s.labels().names()));
    return List.copyOf(names);
  }
}
