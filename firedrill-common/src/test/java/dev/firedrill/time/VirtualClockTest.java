package dev.firedrill.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class VirtualClockTest {

  private static final Instant START = Instant.parse("2026-11-29T10:00:00Z");

  private final VirtualClock clock = new VirtualClock(START);

  /** Work at each whole second: records it, or throws what {@code failure} holds. */
  private final class EverySecond implements VirtualClock.Agenda {
    final List<Instant> ran = new ArrayList<>();
    InterruptedException failure;
    Instant next = START.plusSeconds(1);

    @Override
    public Instant nextDue() {
      return next;
    }

    @Override
    public void runDue(Instant now) throws InterruptedException {
      assertThat(clock.now()).isEqualTo(now);
      if (failure != null) {
        throw failure;
      }
      ran.add(now);
      next = now.plusSeconds(1);
    }
  }

  @Test
  void advancingMovesTheTimeAndTheMonotonicReading() {
    clock.advance(Duration.ofMillis(1500));
    clock.setTime(START.plusSeconds(4));

    assertThat(clock.now()).isEqualTo(START.plusSeconds(4));
    assertThat(clock.nanoTime()).isEqualTo(4_000_000_000L);
    assertThat(VirtualClock.at("2026-11-29T10:00:00Z").now()).isEqualTo(START);
  }

  @Test
  void sleepingAdvancesAndANegativeSleepTakesNoTime() throws Exception {
    clock.sleep(Duration.ofSeconds(3));
    clock.sleep(Duration.ofSeconds(-1));

    assertThat(clock.now()).isEqualTo(START.plusSeconds(3));
  }

  @Test
  void itNeverGoesBack() {
    clock.advance(Duration.ofSeconds(1));

    assertThatThrownBy(() -> clock.advance(Duration.ofSeconds(-1)))
        .hasMessage("cannot advance by PT-1S (expected zero or more)");
    assertThatThrownBy(() -> clock.setTime(START))
        .hasMessage(
            "virtual time 2026-11-29T10:00:00Z is before 2026-11-29T10:00:01Z (expected no earlier than now)");
    assertThat(clock.now()).isEqualTo(START.plusSeconds(1));
  }

  @Test
  void anInterruptedThreadDoesNotSleep() {
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> clock.sleep(Duration.ofSeconds(1)))
          .isInstanceOf(InterruptedException.class);
      assertThat(clock.now()).isEqualTo(START);
      assertThat(Thread.currentThread().isInterrupted())
          .as("cleared, as Thread.sleep clears it")
          .isFalse();
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void listenersSeeEveryMove() throws Exception {
    List<Instant> seen = new ArrayList<>();
    clock.onAdvance(seen::add);

    clock.advance(Duration.ofSeconds(1));
    clock.sleep(Duration.ofSeconds(2));

    assertThat(seen).containsExactly(START.plusSeconds(1), START.plusSeconds(3));
  }

  @Test
  void aMoveStopsAtEachInstantTheAgendaNamesAndEndsAtItsTarget() {
    EverySecond work = new EverySecond();
    clock.drive(work);

    clock.advance(Duration.ofMillis(2500));
    clock.advance(Duration.ofMillis(500));

    assertThat(work.ran)
        .containsExactly(START.plusSeconds(1), START.plusSeconds(2), START.plusSeconds(3));
    assertThat(clock.now()).isEqualTo(START.plusSeconds(3));
  }

  @Test
  void workDueBeforeNowRunsAtNow() {
    EverySecond work = new EverySecond();
    clock.drive(work);
    clock.advance(Duration.ofMillis(1500));
    work.next = START;

    clock.advance(Duration.ZERO);

    assertThat(work.ran).containsExactly(START.plusSeconds(1), START.plusMillis(1500));
  }

  @Test
  void interruptedWorkStopsAnAdvanceAtItsInstantWithTheFlagSet() {
    EverySecond work = new EverySecond();
    clock.drive(work);
    work.failure = new InterruptedException();

    clock.advance(Duration.ofSeconds(5));

    try {
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
      assertThat(clock.now()).isEqualTo(START.plusSeconds(1));
    } finally {
      Thread.interrupted();
    }
  }
}
