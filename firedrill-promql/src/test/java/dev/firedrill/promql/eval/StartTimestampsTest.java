package dev.firedrill.promql.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.SeriesSource;
import dev.firedrill.promql.model.StoredSeries;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link Feature#USE_START_TIMESTAMPS}: start timestamps change rate and friends only when the flag
 * is on, as in Prometheus, where {@code use-start-timestamps} is off by default.
 */
class StartTimestampsTest {

  private static final LabelSet COUNTER = LabelSet.of("__name__", "c_total");

  /**
   * A counter at 60, 120, 180 (1m apart) that restarted just before its last sample: the last
   * sample's start timestamp lies after the one before it, though its value went up.
   */
  private static final SeriesSource SOURCE =
      new SeriesSource() {
        @Override
        public List<StoredSeries> select(List<LabelMatcher> matchers, long min, long max) {
          return List.of(
              new StoredSeries(
                  COUNTER,
                  new long[] {60_000, 120_000, 180_000},
                  new double[] {60, 120, 180},
                  3,
                  new long[] {30_000, 30_000, 150_000}));
        }

        @Override
        public List<String> labelNames(List<LabelMatcher> matchers, long min, long max) {
          return List.of("__name__");
        }
      };

  private static Engine engine(Set<Feature> features) {
    return new Engine(
        SOURCE,
        new Engine.Options(Duration.ofMinutes(5), Duration.ofMinutes(1)).withFeatures(features));
  }

  private static double value(Engine engine, String query) {
    return ((Value.Vector) engine.instant(query, 180_000)).samples().get(0).value();
  }

  @Test
  void withoutTheFlagStartTimestampsChangeNothing() {
    Engine off = engine(Set.of());

    assertThat(value(off, "resets(c_total[5m])")).isEqualTo(0);
    assertThat(value(off, "irate(c_total[5m])")).isEqualTo(1);
    assertThat(((Value.Vector) off.instant("start_timestamp(c_total)", 180_000)).samples())
        .isEmpty();
  }

  @Test
  void withTheFlagAStartAfterThePreviousSampleIsAReset() {
    Engine on = engine(Set.of(Feature.USE_START_TIMESTAMPS));

    assertThat(value(on, "resets(c_total[5m])")).isEqualTo(1);
    // After the reset the counter counted 180 in the 60 s since the previous sample.
    assertThat(value(on, "irate(c_total[5m])")).isEqualTo(3);
    assertThat(value(on, "start_timestamp(c_total)")).isEqualTo(150);
  }

  @Test
  void mode2IgnoresTheFlag() {
    Engine two =
        new Engine(
            SOURCE,
            new Engine.Options(Duration.ofMinutes(5), Duration.ofMinutes(1))
                .withCompat(Compat.PROMETHEUS_2)
                .withFeatures(Set.of(Feature.USE_START_TIMESTAMPS)));

    assertThat(value(two, "resets(c_total[5m])")).isEqualTo(0);
  }
}
