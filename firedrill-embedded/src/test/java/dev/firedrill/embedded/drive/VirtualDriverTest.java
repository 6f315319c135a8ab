package dev.firedrill.embedded.drive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.time.VirtualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class VirtualDriverTest {

  private static final Instant START = Instant.parse("2026-11-29T00:00:00Z");

  private final VirtualClock clock = new VirtualClock(START.plusMillis(500));
  private final VirtualDriver driver = VirtualDriver.on(clock);
  private final List<String> ran = new ArrayList<>();

  private Scheduled recording(String name, Duration interval, Duration offset) {
    return new Scheduled(name, interval, offset, at -> record(name, at));
  }

  private void record(String name, Instant at) {
    assertThat(clock.now()).as("the clock stands at the slot while %s runs", name).isEqualTo(at);
    ran.add(name + "@" + Duration.between(START, at).toMillis());
  }

  @Test
  void runsEverySlotDueInTimeOrderAndLeavesTheClockAtTheTarget() {
    driver.add(
        List.of(
            recording("scrape", Duration.ofSeconds(1), Duration.ZERO),
            recording("rules", Duration.ofMillis(1500), Duration.ofMillis(250))));

    clock.advance(Duration.ofMillis(2500));

    assertThat(ran).containsExactly("scrape@1000", "rules@1750", "scrape@2000", "scrape@3000");
    assertThat(clock.now()).isEqualTo(START.plusMillis(3000));
  }

  @Test
  void coincidingSlotsRunInTheOrderTheWorkWasAdded() {
    driver.add(List.of(recording("alertmanager", Duration.ofSeconds(2), Duration.ZERO)));
    driver.add(
        List.of(
            recording("scrape", Duration.ofSeconds(1), Duration.ZERO),
            recording("rules", Duration.ofSeconds(2), Duration.ZERO)));

    clock.advance(Duration.ofMillis(1500));
    clock.advance(Duration.ZERO);

    assertThat(ran)
        .containsExactly("scrape@1000", "alertmanager@2000", "scrape@2000", "rules@2000");
  }

  @Test
  void sleepingOnTheClockRunsTheWorkDueMeanwhile() throws Exception {
    driver.add(List.of(recording("scrape", Duration.ofSeconds(1), Duration.ZERO)));

    clock.sleep(Duration.ofMillis(1500));

    assertThat(ran).containsExactly("scrape@1000", "scrape@2000");
    assertThat(clock.now()).isEqualTo(START.plusMillis(2000));
  }

  @Test
  void workThatAnEarlierPieceMadeDueAtTheSameInstantRunsThenAsWell() {
    List<Instant> held = new ArrayList<>();
    Recurring flushes =
        new Recurring() {
          @Override
          public String name() {
            return "flushes";
          }

          @Override
          public Instant nextAtOrAfter(Instant t) {
            return held.isEmpty() ? Instant.MAX : held.get(0);
          }

          @Override
          public void run(Instant at) {
            record("flush", at);
            held.clear();
          }
        };
    driver.add(
        List.of(
            flushes,
            new Scheduled(
                "rules",
                Duration.ofSeconds(1),
                Duration.ZERO,
                at -> {
                  record("rules", at);
                  held.add(at); // due at once, at the instant the flushes may already have run
                })));

    clock.advance(Duration.ofMillis(1500));

    assertThat(ran).containsExactly("rules@1000", "flush@1000", "rules@2000", "flush@2000");
  }

  @Test
  void workTakenOffTheDriverNoLongerRuns() {
    VirtualDriver.Added scrapes =
        driver.add(List.of(recording("scrape", Duration.ofSeconds(1), Duration.ZERO)));
    driver.add(List.of(recording("rules", Duration.ofSeconds(1), Duration.ZERO)));

    clock.advance(Duration.ofMillis(500));
    scrapes.close();
    clock.advance(Duration.ofSeconds(1));

    assertThat(ran).containsExactly("scrape@1000", "rules@1000", "rules@2000");
  }

  @Test
  void aFailingPieceOfWorkDoesNotStopTheOthers() {
    driver.add(
        List.of(
            new Scheduled(
                "broken",
                Duration.ofSeconds(1),
                Duration.ZERO,
                at -> {
                  throw new IllegalStateException("target down");
                }),
            recording("rules", Duration.ofSeconds(1), Duration.ZERO)));

    clock.advance(Duration.ofSeconds(2));

    assertThat(ran).containsExactly("rules@1000", "rules@2000");
  }

  @Test
  void anInterruptedPieceOfWorkStopsTheSleepAtItsSlot() {
    driver.add(
        List.of(
            new Scheduled(
                "waits",
                Duration.ofSeconds(1),
                Duration.ZERO,
                at -> {
                  throw new InterruptedException();
                })));

    assertThatThrownBy(() -> clock.sleep(Duration.ofSeconds(5)))
        .isInstanceOf(InterruptedException.class);
    assertThat(clock.now()).isEqualTo(START.plusMillis(1000));
  }

  @Test
  void workMayNotMoveTheClockItRunsOn() {
    List<Throwable> refused = new ArrayList<>();
    driver.add(
        List.of(
            new Scheduled(
                "sleeps",
                Duration.ofSeconds(1),
                Duration.ZERO,
                at -> {
                  try {
                    clock.sleep(Duration.ofSeconds(1));
                  } catch (IllegalStateException e) {
                    refused.add(e);
                  }
                })));

    clock.advance(Duration.ofMillis(500));

    assertThat(refused)
        .singleElement()
        .extracting(Throwable::getMessage)
        .isEqualTo(
            "cannot move the virtual clock"
                + " from work running on it at 2026-11-29T00:00:01Z (expected the work to return and the clock's owner to move it)");
  }

  @Test
  void aClockHasOneDriver() {
    assertThatThrownBy(() -> VirtualDriver.on(clock))
        .hasMessage(
            "the virtual clock has an agenda already (expected one to hold all work on it)");
  }
}
