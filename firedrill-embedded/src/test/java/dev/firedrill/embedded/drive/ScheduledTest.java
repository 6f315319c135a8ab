package dev.firedrill.embedded.drive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ScheduledTest {

  private static final Scheduled EVERY_15S_AT_3 =
      new Scheduled("job", Duration.ofSeconds(15), Duration.ofSeconds(3), at -> {});

  @Test
  void slotsAreOffsetMultiplesOfTheIntervalSinceTheEpoch() {
    assertThat(EVERY_15S_AT_3.nextAtOrAfter(Instant.parse("2026-11-29T00:00:00Z")))
        .isEqualTo(Instant.parse("2026-11-29T00:00:03Z"));
    assertThat(EVERY_15S_AT_3.nextAtOrAfter(Instant.parse("2026-11-29T00:00:03Z")))
        .isEqualTo(Instant.parse("2026-11-29T00:00:03Z"));
    assertThat(EVERY_15S_AT_3.nextAtOrAfter(Instant.parse("2026-11-29T00:00:03.0001Z")))
        .isEqualTo(Instant.parse("2026-11-29T00:00:18Z"));
  }

  @Test
  void refusesAnIntervalUnderAMillisecondAndAnOffsetOutsideIt() {
    assertThatThrownBy(() -> new Scheduled("job", Duration.ZERO, Duration.ZERO, at -> {}))
        .hasMessage("job: interval PT0S is not positive (expected at least 1ms)");
    assertThatThrownBy(
            () -> new Scheduled("job", Duration.ofSeconds(1), Duration.ofSeconds(1), at -> {}))
        .hasMessage("job: offset PT1S is outside [0, PT1S)");
  }
}
