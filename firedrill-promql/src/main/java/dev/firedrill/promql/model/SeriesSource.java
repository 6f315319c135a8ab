package dev.firedrill.promql.model;

import java.util.List;

/** Where the evaluator reads samples from: the embedded storage, or a test's loaded series. */
public interface SeriesSource {

  /**
   * Every series that all matchers select, with its samples (staleness markers included) whose
   * timestamps lie in {@code [minTimeMs, maxTimeMs]}; series without such samples are left out.
   * Series come in {@link LabelSet} order.
   */
  List<StoredSeries> select(List<LabelMatcher> matchers, long minTimeMs, long maxTimeMs);

  /** Label names of every series the matchers select (all series when there are none), sorted. */
  List<String> labelNames(List<LabelMatcher> matchers, long minTimeMs, long maxTimeMs);
}
