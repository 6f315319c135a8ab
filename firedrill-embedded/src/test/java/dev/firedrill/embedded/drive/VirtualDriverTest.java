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
  private final List<String> ran = new ArrayList<>();

  private Scheduled recording(String name, Duration interval, Duration offset) {
    return new Scheduled(name, interval, offset, at -> {
      assertThat(clock.now()).as("the clock stands at the slot while %s runs", name).isEqualTo(at);
      ran.add(name + "@" + Duration.between(START, at).toMillis());
    });
  }

  @Test
  void runsEverySlotDueInTimeOrderAndLeavesTheClockAtTheTarget() throws Exception {
    VirtualDriver driver = new VirtualDriver(clock, List.of(
        recording("scrape", Duration.ofSeconds(1), Duration.ZERO),
        recording("rules", Duration.ofMillis(1500), Duration.ofMillis(250))));

    driver.advance(Duration.ofMillis(2500));

    assertThat(ran).containsExactly("scrape@1000", "rules@1750", "scrape@2000", "scrape@3000");
    assertThat(clock.now()).isEqualTo(START.plusMillis(3000));
  }

  @Test
  void coincidingSlotsRunInTheOrderTheWorkWasGiven() throws Exception {
    VirtualDriver driver = new VirtualDriver(clock, List.of(
        recording("scrape", Duration.ofSeconds(1), Duration.ZERO),
        recording("rules", Duration.ofSeconds(2), Duration.ZERO)));

    driver.advance(Duration.ofMillis(1500));
    driver.advance(Duration.ZERO);

    assertThat(ran).containsExactly("scrape@1000", "scrape@2000", "rules@2000");
  }

  @Test
  void aFailingPieceOfWorkDoesNotStopTheOthers() throws Exception {
    VirtualDriver driver = new VirtualDriver(clock, List.of(
        new Scheduled("broken", Duration.ofSeconds(1), Duration.ZERO, at -> {
          throw new IllegalStateException("target down");
        }),
        recording("rules", Duration.ofSeconds(1), Duration.ZERO)));

    driver.advance(Duration.ofSeconds(2));

    assertThat(ran).containsExactly("rules@1000", "rules@2000");
  }

  @Test
  void refusesToGoBackInTime() {
    VirtualDriver driver = new VirtualDriver(clock, List.of());

    assertThatThrownBy(() -> driver.advance(Duration.ofSeconds(-1)))
        .hasMessage("cannot advance by PT-1S (expected zero or more)");
  }

  @Test
  void anInterruptedPieceOfWorkStopsTheAdvanceAtItsSlot() {
    VirtualDriver driver = new VirtualDriver(clock, List.of(new Scheduled("waits", Duration.ofSeconds(1), Duration.ZERO, at -> {
      throw new InterruptedException();
    })));

    assertThatThrownBy(() -> driver.advance(Duration.ofSeconds(5))).isInstanceOf(InterruptedException.class);
    assertThat(clock.now()).isEqualTo(START.plusMillis(1000));
  }

  @Test
  void theVirtualClockRefusesToSleep() {
    assertThatThrownBy(() -> clock.sleep(Duration.ofSeconds(1)))
        .hasMessage("cannot sleep PT1S on a virtual clock (expected its owner to move it)");
  }
}
