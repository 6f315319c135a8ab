package dev.firedrill.embedded.storage;

import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.StoredSeries;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The embedded Prometheus's head block, in memory: an inverted index (postings per label name and
 * value) over series that keep their samples in compact chunks.
 *
 * <p>Threads: appends to an existing series take only that series' monitor, so scrapes and rule
 * evaluation (one writer per series) run beside queries. Creating a series and truncating take the
 * index's write lock; selecting takes its read lock and then each selected series' monitor in turn.
 */
public final class MemoryStorage implements Storage {

  private final ConcurrentHashMap<LabelSet, MemSeries> byLabels = new ConcurrentHashMap<>();
  private final ReentrantReadWriteLock indexLock = new ReentrantReadWriteLock();

  /** By id; guarded by {@link #indexLock}. */
  private MemSeries[] series = new MemSeries[64];

  private int nextId;

  /** Label name to its values' postings; guarded by {@link #indexLock}. */
  private final Map<String, LabelValues> index = new HashMap<>();

  /**
   * Each series' place in label order, by id, so a select sorts ints rather than comparing label
   * sets; null after series come or go, and rebuilt by the next select that needs it. Written under
   * the read lock by one reader at a time (its monitor), read under the read lock.
   */
  private volatile int[] rankById;

  private final Object rankMonitor = new Object();

  /** Samples before this are out of bounds, as in Prometheus's head after truncation. */
  private volatile long minValidTimeMs = Long.MIN_VALUE;

  /** One label name's values; the name is the instance every series shares. */
  private record LabelValues(String name, Map<String, Postings> byValue) {}

  @Override
  public boolean append(LabelSet labels, long timestampMs, double value) {
    if (timestampMs < minValidTimeMs) {
      return false;
    }
    while (true) {
      MemSeries target = byLabels.get(labels);
      if (target == null) {
        target = create(labels);
      }
      switch (target.append(timestampMs, value)) {
        case APPENDED, UNCHANGED:
          return true;
        case OUT_OF_ORDER, DUPLICATE:
          return false;
        case REMOVED:
          break;
      }
    }
  }

  @Override
  public List<StoredSeries> select(List<LabelMatcher> matchers, long minTimeMs, long maxTimeMs) {
    List<MemSeries> matched = matching(matchers, true);
    List<StoredSeries> out = new ArrayList<>(matched.size());
    MemSeries.Scratch scratch = new MemSeries.Scratch();
    for (MemSeries s : matched) {
      StoredSeries read = s.read(minTimeMs, maxTimeMs, scratch);
      if (read != null) {
        out.add(read);
      }
    }
    return out;
  }

  @Override
  public List<String> labelNames(List<LabelMatcher> matchers, long minTimeMs, long maxTimeMs) {
    TreeSet<String> names = new TreeSet<>();
    for (MemSeries s : matching(matchers, false)) {
      if (s.hasSamples(minTimeMs, maxTimeMs)) {
        names.addAll(s.labels.names());
      }
    }
    return List.copyOf(names);
  }

  @Override
  public void truncateBefore(long minTimeMs) {
    if (minTimeMs <= minValidTimeMs) {
      return;
    }
    minValidTimeMs = minTimeMs;
    indexLock.writeLock().lock();
    try {
      MemSeries[] kept = new MemSeries[Math.max(64, nextId)];
      int n = 0;
      for (int id = 0; id < nextId; id++) {
        MemSeries s = series[id];
        if (s.truncateBefore(minTimeMs)) {
          byLabels.remove(s.labels, s);
        } else {
          kept[n++] = s;
        }
      }
      if (n < nextId) {
        reindex(kept, n);
      }
    } finally {
      indexLock.writeLock().unlock();
    }
  }

  @Override
  public int seriesCount() {
    return byLabels.size();
  }

  private MemSeries create(LabelSet labels) {
    indexLock.writeLock().lock();
    try {
      MemSeries existing = byLabels.get(labels);
      if (existing != null) {
        return existing;
      }
      // The floor closes the race with a truncation that ran after this append checked the bound.
      MemSeries created = new MemSeries(shared(labels), minValidTimeMs);
      add(created);
      byLabels.put(created.labels, created);
      return created;
    } finally {
      indexLock.writeLock().unlock();
    }
  }

  /**
   * The labels rebuilt from the index's instances of each name and value: 10,000 series of one
   * metric then hold one copy of its name, not 10,000.
   */
  private LabelSet shared(LabelSet labels) {
    LabelSet.Builder b = LabelSet.builder();
    for (int i = 0; i < labels.size(); i++) {
      LabelValues values = index.get(labels.name(i));
      String name = values == null ? labels.name(i) : values.name();
      Postings postings = values == null ? null : values.byValue().get(labels.value(i));
      b.set(name, postings == null ? labels.value(i) : postings.value);
    }
    return b.build();
  }

  /** Gives the series the next id and enters it in the postings; under the write lock. */
  private void add(MemSeries s) {
    if (nextId == series.length) {
      series = Arrays.copyOf(series, nextId * 2);
    }
    int id = nextId++;
    series[id] = s;
    s.id = id;
    rankById = null;
    LabelSet labels = s.labels;
    for (int i = 0; i < labels.size(); i++) {
      String name = labels.name(i);
      String value = labels.value(i);
      index
          .computeIfAbsent(name, k -> new LabelValues(name, new HashMap<>()))
          .byValue()
          .computeIfAbsent(value, Postings::new)
          .add(id);
    }
  }

  private void reindex(MemSeries[] kept, int n) {
    rankById = null;
    series = kept;
    nextId = 0;
    index.clear();
    for (int i = 0; i < n; i++) {
      add(kept[i]);
    }
  }

  /**
   * The series all matchers select. Equality matchers intersect their postings, shortest first. A
   * matcher that cannot match a missing label unions the postings of the values it matches, when
   * its label has fewer values than there are candidates left; every other matcher filters the
   * candidates by their labels.
   */
  private List<MemSeries> matching(List<LabelMatcher> matchers, boolean labelOrder) {
    indexLock.readLock().lock();
    try {
      List<Postings> equal = new ArrayList<>();
      List<LabelMatcher> others = new ArrayList<>();
      for (LabelMatcher m : matchers) {
        if (m.type() == LabelMatcher.Type.EQUAL && !m.value().isEmpty()) {
          LabelValues values = index.get(m.name());
          Postings postings = values == null ? null : values.byValue().get(m.value());
          if (postings == null) {
            return List.of();
          }
          equal.add(postings);
        } else {
          others.add(m);
        }
      }
      equal.sort(Comparator.comparingInt(Postings::size));
      int[] candidates = null;
      for (Postings postings : equal) {
        candidates = candidates == null ? postings.toArray() : postings.retain(candidates);
      }
      List<LabelMatcher> filters = new ArrayList<>();
      for (LabelMatcher m : others) {
        LabelValues values = index.get(m.name());
        if (m.matchesEmpty()) {
          filters.add(m);
        } else if (values == null) {
          return List.of();
        } else if (candidates == null || values.byValue().size() < candidates.length) {
          int[] ids = union(m, values);
          candidates =
              candidates == null
                  ? ids
                  : Postings.intersect(candidates, candidates.length, ids, ids.length);
        } else {
          filters.add(m);
        }
      }
      int count = candidates == null ? nextId : candidates.length;
      int[] rank = labelOrder ? ranks() : null;
      // (rank << 32 | id): one primitive sort puts the matches in label order.
      long[] keys = new long[count];
      int n = 0;
      for (int i = 0; i < count; i++) {
        int id = candidates == null ? i : candidates[i];
        if (matchesAll(filters, series[id].labels)) {
          keys[n++] = labelOrder ? ((long) rank[id] << 32) | id : id;
        }
      }
      if (labelOrder) {
        Arrays.sort(keys, 0, n);
      }
      List<MemSeries> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(series[(int) keys[i]]);
      }
      return out;
    } finally {
      indexLock.readLock().unlock();
    }
  }

  /** Each id's rank in label order; under the read lock. */
  private int[] ranks() {
    int[] rank = rankById;
    if (rank != null) {
      return rank;
    }
    synchronized (rankMonitor) {
      rank = rankById;
      if (rank == null) {
        MemSeries[] sorted = Arrays.copyOf(series, nextId);
        Arrays.sort(sorted, (a, b) -> a.labels.compareTo(b.labels));
        rank = new int[nextId];
        for (int i = 0; i < sorted.length; i++) {
          rank[sorted[i].id] = i;
        }
        rankById = rank;
      }
      return rank;
    }
  }

  /** The ids of series whose value of the matcher's label it matches (a regex scans the values). */
  private static int[] union(LabelMatcher m, LabelValues values) {
    List<Postings> hits = new ArrayList<>();
    int total = 0;
    for (Postings postings : values.byValue().values()) {
      if (m.matches(postings.value)) {
        hits.add(postings);
        total += postings.size();
      }
    }
    int[] ids = new int[total];
    int at = 0;
    for (Postings postings : hits) {
      at = postings.copyInto(ids, at);
    }
    // A series has one value per name, so the lists are disjoint: sorting suffices.
    Arrays.sort(ids);
    return ids;
  }

  private static boolean matchesAll(List<LabelMatcher> filters, LabelSet labels) {
    for (LabelMatcher m : filters) {
      if (!m.matches(labels.get(m.name()))) {
        return false;
      }
    }
    return true;
  }
}
