package dev.firedrill.embedded.scrape;

import dev.firedrill.embedded.storage.Storage;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.StoredSeries;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A storage that counts down a latch on every append of one metric, so a test waits for scrapes
 * without polling.
 */
final class CountingStorage implements Storage {

  private final Storage delegate;
  private final String metric;
  private final CountDownLatch latch;

  CountingStorage(Storage delegate, String metric, CountDownLatch latch) {
    this.delegate = delegate;
    this.metric = metric;
    this.latch = latch;
  }

  @Override
  public boolean append(LabelSet labels, long timestampMs, double value) {
    boolean appended = delegate.append(labels, timestampMs, value);
    if (labels.metricName().equals(metric)) {
      latch.countDown();
    }
    return appended;
  }

  @Override
  public List<StoredSeries> select(List<LabelMatcher> matchers, long minTimeMs, long maxTimeMs) {
    return delegate.select(matchers, minTimeMs, maxTimeMs);
  }

  @Override
  public List<String> labelNames(List<LabelMatcher> matchers, long minTimeMs, long maxTimeMs) {
    return delegate.labelNames(matchers, minTimeMs, maxTimeMs);
  }

  @Override
  public void truncateBefore(long minTimeMs) {
    delegate.truncateBefore(minTimeMs);
  }

  @Override
  public int seriesCount() {
    return delegate.seriesCount();
  }
}
