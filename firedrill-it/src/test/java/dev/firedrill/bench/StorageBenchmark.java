package dev.firedrill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.embedded.storage.MemoryStorage;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelMatcher.Type;
import dev.firedrill.promql.model.LabelSet;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The embedded storage at {@value #SERIES} series (labels shaped like an HTTP service's: name, job,
 * instance, method, code, handler): heap per series with one sample (the fixed overhead) and after
 * two hours at a 15 s interval ({@value #SAMPLES} samples each), and the latency of a select whose
 * matchers pick a handful of series, p50 and p99. Heap figures come from the heap in use after
 * repeated GCs, so they are approximate. Asserts only that the select found what it should.
 *
 * <p>Not run by default: {@code mvn -B -q -o test -Dtest=StorageBenchmark}.
 */
class StorageBenchmark {

  static final int SERIES = 10_000;
  static final int SAMPLES = 480;

  @Test
  void memoryPerSeriesAndSelectLatency() {
    BenchReport report = new BenchReport("storage");
    LabelSet[] labels = new LabelSet[SERIES];
    for (int i = 0; i < SERIES; i++) {
      labels[i] =
          LabelSet.of(
              "__name__",
              "http_requests_total",
              "job",
              "api",
              "instance",
              "10.0.0." + (i % 100) + ":8080",
              "method",
              i % 2 == 0 ? "GET" : "POST",
              "code",
              String.valueOf(200 + i % 7 * 50),
              "handler",
              "/api/v1/h" + i / 100);
    }
    long before = heapUsed();
    MemoryStorage storage = new MemoryStorage();
    for (int i = 0; i < SERIES; i++) {
      storage.append(labels[i], 0, i);
    }
    long oneSample = heapUsed();
    for (int s = 1; s < SAMPLES; s++) {
      for (int i = 0; i < SERIES; i++) {
        storage.append(labels[i], s * 15_000L, i + s * 0.25);
      }
    }
    long full = heapUsed();
    report.line("series: %d, samples per series: %d", SERIES, SAMPLES);
    report.line(
        "heap per series with one sample (fixed overhead, label strings shared with the caller's): %d B",
        (oneSample - before) / SERIES);
    report.line(
        "heap per sample beyond the first: %.1f B",
        (full - oneSample) / (double) SERIES / (SAMPLES - 1));
    report.line("heap per series after 2 h at 15 s: %d B", (full - before) / SERIES);

    List<LabelMatcher> matchers =
        List.of(
            LabelMatcher.of(Type.EQUAL, "__name__", "http_requests_total"),
            LabelMatcher.of(Type.EQUAL, "instance", "10.0.0.7:8080"),
            LabelMatcher.of(Type.REGEX, "code", "5.."));
    long maxT = (SAMPLES - 1) * 15_000L;
    int found = storage.select(matchers, maxT - 300_000, maxT).size();
    long[] nanos = new long[5000];
    for (int r = 0; r < nanos.length; r++) {
      long start = System.nanoTime();
      storage.select(matchers, maxT - 300_000, maxT);
      nanos[r] = System.nanoTime() - start;
    }
    Arrays.sort(nanos);
    report.line(
        "select of %d series out of %d (3 matchers, 5 min of samples): p50 %.1f us, p99 %.1f us",
        found, SERIES, nanos[nanos.length / 2] / 1e3, nanos[nanos.length * 99 / 100] / 1e3);
    report.finish();
    assertThat(storage.seriesCount()).isEqualTo(SERIES);
    assertThat(found).isEqualTo(14);
  }

  private static long heapUsed() {
    for (int i = 0; i < 4; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
