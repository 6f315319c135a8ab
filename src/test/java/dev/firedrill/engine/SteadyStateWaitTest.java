package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import dev.firedrill.time.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SteadyStateWaitTest {

  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private final TestClock clock = new TestClock(START);
  private final List<Instant> measuredAt = new ArrayList<>();

  /** p99 latency readings in turn, the last one repeated. */
  private Measurer latencies(double... seconds) {
    return () -> {
      measuredAt.add(clock.now());
      double value = seconds[Math.min(measuredAt.size() - 1, seconds.length - 1)];
      return new Measurement(clock.now(), List.of(Reading.of("p99", value, value <= 0.25, "<= 0.25")), Optional.empty());
    };
  }

  @Test
  void measuresEachIntervalUntilTheSteadyStateHolds() throws InterruptedException {
    Measurement last = SteadyStateWait.await(latencies(0.4, 0.3, 0.1), Duration.ofSeconds(30), Duration.ofSeconds(1),
        clock);

    assertThat(last.withinSteadyState()).isTrue();
    assertThat(measuredAt).containsExactly(START, START.plusSeconds(1), START.plusSeconds(2));
  }

  @Test
  void givesUpAtTheTimeoutWithTheLastBreach() throws InterruptedException {
    Measurement last = SteadyStateWait.await(latencies(0.4), Duration.ofSeconds(5), Duration.ofSeconds(1), clock);

    assertThat(last.withinSteadyState()).isFalse();
    assertThat(last.text()).isEqualTo(Reading.of("p99", 0.4, false, "<= 0.25").text());
    assertThat(measuredAt).hasSize(6).last().isEqualTo(START.plusSeconds(5));
  }
}
