package dev.firedrill.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Expected strings are what Go's time.Time writes in JSON for the same instants. */
class Rfc3339Test {

  @Test
  void timesAreRfc3339WithTrailingZerosDropped() {
    assertThat(Rfc3339.formatNano(Instant.parse("2026-11-29T23:48:39.630514595Z")))
        .isEqualTo("2026-11-29T23:48:39.630514595Z");
    assertThat(Rfc3339.formatNano(Instant.parse("2026-11-29T23:48:39.631309940Z")))
        .isEqualTo("2026-11-29T23:48:39.63130994Z");
    assertThat(Rfc3339.formatNano(Instant.parse("2026-11-29T23:48:39Z")))
        .isEqualTo("2026-11-29T23:48:39Z");
  }
}
