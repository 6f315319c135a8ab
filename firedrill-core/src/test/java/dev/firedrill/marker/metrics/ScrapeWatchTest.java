package dev.firedrill.marker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.time.VirtualClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Which scrapes count as having read the 0, and how long the wait for one lasts, on a virtual
 * clock.
 */
class ScrapeWatchTest {

  private final VirtualClock clock = VirtualClock.at("2026-11-29T10:00:00Z");
  private final ScrapeWatch watch = new ScrapeWatch(clock);

  @Test
  void aScrapeThatStartedBeforeTheZeroDoesNotCount() {
    watch.activeChanged(false);
    long before = watch.started();
    watch.activeChanged(true);
    watch.completed(before);

    assertThat(watch.scrapesOfZero()).isZero();
    assertThat(watch.awaitZeroScraped(Duration.ofSeconds(5))).isFalse();
  }

  @Test
  void aScrapeThatStartedAfterTheZeroAndCompletedCounts() {
    watch.activeChanged(false);
    watch.activeChanged(true);
    long after = watch.started();
    watch.completed(after);

    assertThat(watch.scrapesOfZero()).isEqualTo(1);
    assertThat(watch.awaitZeroScraped(Duration.ofSeconds(5))).isTrue();
  }

  @Test
  void aFaultTurnedOnAgainNeedsAFreshScrapeOfTheNextZero() {
    watch.activeChanged(true);
    long first = watch.started();
    watch.activeChanged(false);
    watch.completed(first);

    assertThat(watch.scrapesOfZero()).isZero();
  }

  @Test
  void theWaitEndsWhenTheScrapeCompletesNotBefore() {
    watch.activeChanged(false);
    watch.activeChanged(true);
    Instant begin = clock.now();
    long[] token = new long[1];
    clock.onAdvance(
        now -> {
          long elapsed = Duration.between(begin, now).toMillis();
          if (elapsed == 1000) {
            token[0] =
                watch.started(); // Prometheus's next scrape starts at 1 s and answers at 1.3 s
          } else if (elapsed == 1300) {
            watch.completed(token[0]);
          }
        });

    assertThat(watch.awaitZeroScraped(Duration.ofSeconds(30))).isTrue();
    assertThat(Duration.between(begin, clock.now())).isEqualTo(Duration.ofMillis(1300));
  }

  @Test
  void theWaitGivesUpExactlyAtItsLimit() {
    watch.activeChanged(false);
    watch.activeChanged(true);
    Instant begin = clock.now();

    assertThat(watch.awaitZeroScraped(Duration.ofMillis(5025))).isFalse();
    assertThat(Duration.between(begin, clock.now())).isEqualTo(Duration.ofMillis(5025));
  }

  @Test
  void anInterruptEndsTheWaitAndKeepsTheFlag() {
    watch.activeChanged(true);
    Thread.currentThread().interrupt();
    try {
      assertThat(watch.awaitZeroScraped(Duration.ofSeconds(30))).isFalse();
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }
}
