package dev.firedrill.embedded.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelMatcher.Type;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.StaleNaN;
import dev.firedrill.promql.model.StoredSeries;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class MemoryStorageTest {

  private final MemoryStorage storage = new MemoryStorage();

  private static LabelMatcher m(Type type, String name, String value) {
    return LabelMatcher.of(type, name, value);
  }

  private List<String> selected(LabelMatcher... matchers) {
    return storage.select(List.of(matchers), Long.MIN_VALUE, Long.MAX_VALUE).stream()
        .map(s -> s.labels().toString())
        .toList();
  }

  private void fill() {
    storage.append(
        LabelSet.of("__name__", "http_requests_total", "job", "api", "code", "200"), 1000, 1);
    storage.append(
        LabelSet.of("__name__", "http_requests_total", "job", "api", "code", "500"), 1000, 2);
    storage.append(
        LabelSet.of("__name__", "http_requests_total", "job", "web", "code", "503"), 1000, 3);
    storage.append(LabelSet.of("__name__", "http_requests_total", "job", "web"), 1000, 4);
    storage.append(LabelSet.of("__name__", "up", "job", "api"), 1000, 1);
  }

  @Test
  void equalitySelectsByPostingsAndEmptyValueMeansMissingLabel() {
    fill();
    assertThat(
            selected(m(Type.EQUAL, "__name__", "http_requests_total"), m(Type.EQUAL, "job", "web")))
        .as("label by label: code sorts before job")
        .containsExactly(
            "http_requests_total{code=\"503\", job=\"web\"}", "http_requests_total{job=\"web\"}");
    assertThat(
            selected(m(Type.EQUAL, "__name__", "http_requests_total"), m(Type.EQUAL, "code", "")))
        .containsExactly("http_requests_total{job=\"web\"}");
    assertThat(selected(m(Type.EQUAL, "job", "nope"))).isEmpty();
    assertThat(selected(m(Type.EQUAL, "nolabel", "x"))).isEmpty();
  }

  @Test
  void notEqualKeepsSeriesWithoutTheLabel() {
    fill();
    assertThat(
            selected(
                m(Type.EQUAL, "__name__", "http_requests_total"), m(Type.NOT_EQUAL, "code", "200")))
        .containsExactly(
            "http_requests_total{code=\"500\", job=\"api\"}",
            "http_requests_total{code=\"503\", job=\"web\"}",
            "http_requests_total{job=\"web\"}");
    assertThat(selected(m(Type.NOT_EQUAL, "code", ""))).hasSize(3);
  }

  @Test
  void regexIsAnchoredAndScansTheLabelsValues() {
    fill();
    assertThat(selected(m(Type.REGEX, "code", "5..")))
        .containsExactly(
            "http_requests_total{code=\"500\", job=\"api\"}",
            "http_requests_total{code=\"503\", job=\"web\"}");
    assertThat(selected(m(Type.REGEX, "code", "5"))).isEmpty();
    assertThat(selected(m(Type.REGEX, "__name__", "up|nothing")))
        .containsExactly("up{job=\"api\"}");
    // Matching the empty string selects series without the label too.
    assertThat(selected(m(Type.EQUAL, "job", "web"), m(Type.REGEX, "code", "503|")))
        .containsExactly(
            "http_requests_total{code=\"503\", job=\"web\"}", "http_requests_total{job=\"web\"}");
  }

  @Test
  void notRegexExcludesMatchesAndKeepsMissingLabels() {
    fill();
    assertThat(
            selected(
                m(Type.EQUAL, "__name__", "http_requests_total"), m(Type.NOT_REGEX, "code", "5..")))
        .containsExactly(
            "http_requests_total{code=\"200\", job=\"api\"}", "http_requests_total{job=\"web\"}");
    assertThat(selected(m(Type.NOT_REGEX, "code", ".*"))).isEmpty();
  }

  @Test
  void everyIndexPathSelectsWhatFilteringEverySeriesSelects() {
    List<LabelSet> all = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      LabelSet.Builder b =
          LabelSet.builder()
              .set("__name__", i % 10 == 0 ? "rare" : "common")
              .set("instance", "host-" + i % 300)
              .set("code", String.valueOf(200 + i % 4 * 100));
      if (i % 3 == 0) {
        b.set("pod", "p" + i);
      }
      all.add(b.build());
    }
    all.forEach(labels -> storage.append(labels, 1000, 1));
    assertThat(storage.seriesCount()).as("one series per distinct label set").isEqualTo(1200);
    List<List<LabelMatcher>> cases =
        List.of(
            List.of(m(Type.EQUAL, "__name__", "common"), m(Type.EQUAL, "instance", "host-7")),
            List.of(m(Type.EQUAL, "instance", "host-10"), m(Type.EQUAL, "__name__", "rare")),
            List.of(m(Type.EQUAL, "__name__", "common"), m(Type.REGEX, "code", "[45]00")),
            List.of(m(Type.EQUAL, "instance", "host-11"), m(Type.REGEX, "code", "[45]00")),
            List.of(m(Type.REGEX, "instance", "host-1.")),
            List.of(m(Type.REGEX, "pod", "p.*"), m(Type.NOT_EQUAL, "code", "200")),
            List.of(m(Type.EQUAL, "__name__", "common"), m(Type.NOT_REGEX, "pod", "p.*")),
            List.of(
                m(Type.EQUAL, "__name__", "rare"),
                m(Type.EQUAL, "pod", ""),
                m(Type.NOT_EQUAL, "instance", "host-0")));
    for (List<LabelMatcher> matchers : cases) {
      List<String> expected =
          all.stream()
              .filter(labels -> matchers.stream().allMatch(m -> m.matches(labels.get(m.name()))))
              .distinct()
              .sorted()
              .map(LabelSet::toString)
              .toList();
      assertThat(selected(matchers.toArray(LabelMatcher[]::new)))
          .as(matchers.toString())
          .isNotEmpty()
          .isEqualTo(expected);
    }
  }

  @Test
  void noMatchersSelectAllSeriesInLabelOrder() {
    storage.append(LabelSet.of("__name__", "b"), 1, 1);
    storage.append(LabelSet.of("__name__", "a", "x", "2"), 1, 1);
    storage.append(LabelSet.of("__name__", "a", "x", "10"), 1, 1);
    storage.append(LabelSet.of("__name__", "a"), 1, 1);
    assertThat(selected()).containsExactly("a", "a{x=\"10\"}", "a{x=\"2\"}", "b");
  }

  @Test
  void selectReturnsOnlySamplesInTheClosedRangeAndLeavesOutEmptySeries() {
    LabelSet a = LabelSet.of("__name__", "a");
    LabelSet b = LabelSet.of("__name__", "b");
    for (long t = 0; t <= 10_000; t += 1000) {
      storage.append(a, t, t / 1000.0);
    }
    storage.append(b, 20_000, 1);
    List<StoredSeries> got = storage.select(List.of(), 2000, 5000);
    assertThat(got).hasSize(1);
    assertThat(Arrays.copyOf(got.get(0).timestamps(), got.get(0).count()))
        .containsExactly(2000, 3000, 4000, 5000);
    assertThat(Arrays.copyOf(got.get(0).values(), got.get(0).count())).containsExactly(2, 3, 4, 5);
  }

  @Test
  void samplesSpanManyChunksAndOffsetsBeyondAnInt() {
    LabelSet a = LabelSet.of("__name__", "a");
    for (int i = 0; i < 1000; i++) {
      assertThat(storage.append(a, i * 15_000L, i)).isTrue();
    }
    long farAway = 999 * 15_000L + 30L * 24 * 3600 * 1000;
    assertThat(storage.append(a, farAway, -1)).isTrue();
    StoredSeries all = storage.select(List.of(), Long.MIN_VALUE, Long.MAX_VALUE).get(0);
    assertThat(all.count()).isEqualTo(1001);
    for (int i = 0; i < 1000; i++) {
      assertThat(all.timestamps()[i]).isEqualTo(i * 15_000L);
      assertThat(all.values()[i]).isEqualTo(i);
    }
    assertThat(all.timestamps()[1000]).isEqualTo(farAway);
    StoredSeries middle = storage.select(List.of(), 127 * 15_000L, 129 * 15_000L).get(0);
    assertThat(Arrays.copyOf(middle.values(), middle.count())).containsExactly(127, 128, 129);
  }

  @Test
  void outOfOrderAndDuplicatesAreRefusedAsPrometheusRefusesThem() {
    LabelSet a = LabelSet.of("__name__", "a");
    assertThat(storage.append(a, 2000, 1)).isTrue();
    assertThat(storage.append(a, 1000, 1)).as("older than the newest").isFalse();
    assertThat(storage.append(a, 2000, 2)).as("same timestamp, another value").isFalse();
    assertThat(storage.append(a, 2000, 1)).as("same timestamp, same value").isTrue();
    assertThat(storage.append(a, 3000, Double.NaN)).isTrue();
    assertThat(storage.append(a, 3000, StaleNaN.VALUE))
        .as("a staleness marker is not the NaN")
        .isFalse();
    StoredSeries got = storage.select(List.of(), 0, 10_000).get(0);
    assertThat(Arrays.copyOf(got.timestamps(), got.count())).containsExactly(2000, 3000);
    assertThat(got.values()[0]).isEqualTo(1);
  }

  @Test
  void staleMarkersAreStoredWithTheirBits() {
    LabelSet a = LabelSet.of("__name__", "a");
    storage.append(a, 1000, 1);
    storage.append(a, 2000, StaleNaN.VALUE);
    StoredSeries got = storage.select(List.of(), 0, 10_000).get(0);
    assertThat(StaleNaN.is(got.values()[1])).isTrue();
  }

  @Test
  void truncationDropsOldSamplesAndEmptySeriesAndRefusesOlderAppends() {
    LabelSet old = LabelSet.of("__name__", "old");
    LabelSet live = LabelSet.of("__name__", "live", "job", "api");
    storage.append(old, 1000, 1);
    for (long t = 0; t < 400_000; t += 1000) {
      storage.append(live, t, t);
    }
    assertThat(storage.seriesCount()).isEqualTo(2);

    storage.truncateBefore(200_500);

    assertThat(storage.seriesCount()).isEqualTo(1);
    assertThat(selected()).containsExactly("live{job=\"api\"}");
    StoredSeries got = storage.select(List.of(), Long.MIN_VALUE, Long.MAX_VALUE).get(0);
    assertThat(got.timestamps()[0]).isEqualTo(201_000);
    assertThat(got.count()).isEqualTo(199);
    assertThat(storage.append(old, 1000, 1)).as("before the retention bound").isFalse();
    assertThat(storage.seriesCount()).isEqualTo(1);
    // The index was rebuilt: the remaining series is still found by its labels, the dropped one is
    // not.
    assertThat(selected(m(Type.EQUAL, "job", "api"))).containsExactly("live{job=\"api\"}");
    assertThat(selected(m(Type.EQUAL, "__name__", "old"))).isEmpty();
    assertThat(storage.append(old, 500_000, 2)).as("a series may come back").isTrue();
    assertThat(selected(m(Type.EQUAL, "__name__", "old"))).containsExactly("old");
  }

  @Test
  void labelNamesOfSelectedSeriesWithSamplesInRange() {
    fill();
    storage.append(LabelSet.of("__name__", "late", "zone", "eu"), 9000, 1);
    assertThat(storage.labelNames(List.of(), 0, 5000)).containsExactly("__name__", "code", "job");
    assertThat(storage.labelNames(List.of(), 0, 10_000))
        .containsExactly("__name__", "code", "job", "zone");
    assertThat(storage.labelNames(List.of(m(Type.EQUAL, "__name__", "up")), 0, 10_000))
        .containsExactly("__name__", "job");
  }

  @Test
  void concurrentWritersAndReadersSeeOrderedSamples() throws Exception {
    int writers = 4;
    int samples = 5000;
    ExecutorService pool = Executors.newFixedThreadPool(writers + 2);
    AtomicBoolean done = new AtomicBoolean();
    try {
      List<Future<?>> writes = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        writes.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < samples; i++) {
                    for (int s = 0; s < 10; s++) {
                      LabelSet labels =
                          LabelSet.of("__name__", "m", "writer", "w" + writer, "series", "s" + s);
                      assertThat(storage.append(labels, i * 1000L, i)).isTrue();
                    }
                  }
                }));
      }
      List<Future<Integer>> reads = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        reads.add(
            pool.submit(
                () -> {
                  int checks = 0;
                  while (!done.get()) {
                    for (StoredSeries s :
                        storage.select(
                            List.of(m(Type.REGEX, "writer", "w[0-3]")), 0, Long.MAX_VALUE)) {
                      for (int i = 1; i < s.count(); i++) {
                        assertThat(s.timestamps()[i]).isGreaterThan(s.timestamps()[i - 1]);
                        assertThat(s.values()[i]).isEqualTo(s.timestamps()[i] / 1000.0);
                      }
                    }
                    checks++;
                  }
                  return checks;
                }));
      }
      for (Future<?> f : writes) {
        f.get(60, TimeUnit.SECONDS);
      }
      done.set(true);
      for (Future<Integer> f : reads) {
        assertThat(f.get(60, TimeUnit.SECONDS)).isPositive();
      }
    } finally {
      done.set(true);
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(storage.seriesCount()).isEqualTo(writers * 10);
    for (StoredSeries s : storage.select(List.of(), 0, Long.MAX_VALUE)) {
      assertThat(s.count()).as(s.labels().toString()).isEqualTo(samples);
    }
  }
}
