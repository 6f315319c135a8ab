package dev.firedrill.promql.eval;

import dev.firedrill.promql.model.*;
import dev.firedrill.promql.parse.PromqlParser;
import java.util.*;
import org.junit.jupiter.api.Test;

class EvalBench {
  static final class Src implements SeriesSource {
    final List<LabelSet> labels = new ArrayList<>();
    final List<long[]> ts = new ArrayList<>();
    final List<double[]> vs = new ArrayList<>();
    public List<StoredSeries> select(List<LabelMatcher> ms, long min, long max) {
      List<StoredSeries> out = new ArrayList<>();
      for (int i = 0; i < labels.size(); i++) {
        LabelSet l = labels.get(i);
        boolean ok = true;
        for (LabelMatcher m : ms) if (!m.matches(l.get(m.name()))) { ok = false; break; }
        if (!ok) continue;
        long[] t = ts.get(i); double[] v = vs.get(i);
        int a = Arrays.binarySearch(t, min); if (a < 0) a = -a - 1;
        int b = Arrays.binarySearch(t, max); b = b < 0 ? -b - 1 : b + 1;
        if (b > a) out.add(new StoredSeries(l, Arrays.copyOfRange(t, a, b), Arrays.copyOfRange(v, a, b), b - a));
      }
      return out;
    }
    public List<String> labelNames(List<LabelMatcher> m, long a, long b) { return List.of(); }
  }

  @Test
  void bench() {
    Src src = new Src();
    int n = 10_000; int samples = 2 * 240 + 40;
    Random r = new Random(1);
    for (int i = 0; i < n; i++) {
      src.labels.add(LabelSet.of("__name__", "http_requests_total", "job", "job" + (i % 10), "instance", "i" + (i / 10), "code", (i % 3 == 0) ? "500" : "200"));
      long[] t = new long[samples]; double[] v = new double[samples]; double c = 0;
      for (int k = 0; k < samples; k++) { t[k] = k * 15_000L; c += r.nextInt(10); v[k] = c; }
      src.ts.add(t); src.vs.add(v);
    }
    Engine e = new Engine(src, Engine.Options.defaults());
    long end = (samples - 1) * 15_000L; long start = end - 3_600_000;
    String[] qs = {
      "sum by (job) (rate(http_requests_total[5m]))",
      "sum by (job) (rate(http_requests_total{code=\"500\"}[5m])) / sum by (job) (rate(http_requests_total[5m]))",
      "http_requests_total * 2",
      "histogram_quantile(0.9, sum by (le) (rate(http_requests_total[5m])))",
    };
    for (int rep = 0; rep < 5; rep++) {
      for (String q : qs) {
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long t0 = mx.getCurrentThreadCpuTime();
        Value.Matrix m = e.range(q, start, end, 15_000);
        long t1 = mx.getCurrentThreadCpuTime();
        e.instant(q, end);
        long t2 = mx.getCurrentThreadCpuTime();
        System.out.printf("%-100s range %6.1f ms (%d series)  instant %6.1f ms%n", q, (t1 - t0) / 1e6, m.series().size(), (t2 - t1) / 1e6);
      }
    }
  }
}
