package dev.firedrill.embedded.drive;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RealTimeDriverTest {

  @Test
  void runsEachPieceOfWorkAtItsSlotsAsTimePasses() throws Exception {
    ConcurrentLinkedQueue<Instant> slots = new ConcurrentLinkedQueue<>();
    CountDownLatch three = new CountDownLatch(3);
    try (RealTimeDriver driver =
        RealTimeDriver.start(
            Clock.system(),
            List.of(
                new Scheduled(
                    "tick",
                    Duration.ofMillis(50),
                    Duration.ofMillis(10),
                    at -> {
                      slots.add(at);
                      three.countDown();
                    })))) {
      assertThat(three.await(10, TimeUnit.SECONDS)).as("three slots ran").isTrue();
    }
    List<Instant> seen = List.copyOf(slots);
    for (int i = 0; i < seen.size(); i++) {
      assertThat(seen.get(i).toEpochMilli() % 50)
          .as("slot %s is on the 50 ms grid, 10 ms in", seen.get(i))
          .isEqualTo(10);
      if (i > 0) {
        assertThat(seen.get(i)).isAfter(seen.get(i - 1));
      }
    }
  }

  @Test
  void closeInterruptsRunningWorkAndReturnsPromptly() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    RealTimeDriver driver =
        RealTimeDriver.start(
            Clock.system(),
            List.of(
                new Scheduled(
                    "hangs",
                    Duration.ofMillis(20),
                    Duration.ZERO,
                    at -> {
                      started.countDown();
                      try {
                        new CountDownLatch(1).await();
                      } catch (InterruptedException e) {
                        interrupted.countDown();
                        throw e;
                      }
                    })));
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

    long before = System.nanoTime();
    driver.close();

    assertThat(interrupted.await(0, TimeUnit.SECONDS)).as("the work saw the interrupt").isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(5));
  }
}
