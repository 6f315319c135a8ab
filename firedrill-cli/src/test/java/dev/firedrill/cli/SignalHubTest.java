package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import sun.misc.Signal;

/**
 * Two commands in one JVM that register and leave out of order: the signal reaches whoever is still
 * registered, never a command that has left (each command saving and restoring the handler it found
 * left the first one's handler installed after both had ended).
 */
class SignalHubTest {

  @Test
  void aSignalReachesOnlyTheCommandsStillRegisteredWhateverOrderTheyLeft() throws Exception {
    List<String> heard = new CopyOnWriteArrayList<>();
    CountDownLatch second = new CountDownLatch(1);
    CountDownLatch third = new CountDownLatch(1);
    SignalHub.Registration keeper =
        SignalHub.register(signal -> {}); // keeps the JVM's own handler out of the test
    try {
      SignalHub.Registration a = SignalHub.register(signal -> heard.add("a " + signal));
      SignalHub.Registration b =
          SignalHub.register(
              signal -> {
                heard.add("b " + signal);
                second.countDown();
              });
      a.close();
      Signal.raise(
          new Signal(
              "TERM")); // not INT: a background shell leaves it ignored, and then unhandleable
      assertThat(second.await(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
      b.close();

      SignalHub.Registration c =
          SignalHub.register(
              signal -> {
                heard.add("c " + signal);
                third.countDown();
              });
      Signal.raise(new Signal("TERM"));
      assertThat(third.await(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
      c.close();
    } finally {
      keeper.close();
    }
    assertThat(heard).containsExactly("b SIGTERM", "c SIGTERM");
  }

  /**
   * A closed terminal or a dropped ssh session sends SIGHUP: it stops the drill as SIGINT does (the
   * JVM's own handler ended the process with 129 and skipped the rollback).
   */
  @Test
  void aHangUpStopsTheDrillAsAnInterruptDoes() throws Exception {
    List<String> heard = new CopyOnWriteArrayList<>();
    CountDownLatch hung = new CountDownLatch(1);
    SignalHub.Registration registration =
        SignalHub.register(
            signal -> {
              heard.add(signal);
              hung.countDown();
            });
    try {
      Signal.raise(new Signal("HUP"));
      assertThat(hung.await(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    } finally {
      registration.close();
    }
    assertThat(heard).containsExactly("SIGHUP");
  }
}
