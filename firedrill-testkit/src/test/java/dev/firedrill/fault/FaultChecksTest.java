package dev.firedrill.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.FaultSpec;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The ttl a fault's spec must carry, checked from the file alone, and the ttl it is told to add.
 */
class FaultChecksTest {

  private static final BlastRadius HOUR = new BlastRadius(1.0, Duration.ofHours(1), 0.05, 1, 1);

  private static FaultSpec kill(Duration ttl) {
    return new FaultSpec.ProcessKill("sleep", "KILL", Optional.empty(), Optional.ofNullable(ttl));
  }

  @Test
  void aTtlExactlyAsLongAsTheMethodOrTheMaxDurationIsAllowed() throws Exception {
    assertThat(FaultChecks.check(kill(Duration.ofMinutes(10)), HOUR, Duration.ofMinutes(10)))
        .isEqualTo(Duration.ofMinutes(10));
    assertThat(FaultChecks.check(kill(Duration.ofHours(1)), HOUR, Duration.ofMinutes(10)))
        .isEqualTo(Duration.ofHours(1));
  }

  @Test
  void aMissingTtlIsToldTwiceTheMethodWhenThatFitsTheMaxDuration() {
    assertThatThrownBy(() -> FaultChecks.check(kill(null), HOUR, Duration.ofMinutes(10)))
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "process-kill: no ttl; every fault needs a ttl that the injector enforces on its own:"
                + " add ttl: 20m (at least the method's 10m, at most blast_radius max_duration 1h)");
  }

  @Test
  void aMissingTtlIsToldTheMaxDurationWhenTwiceTheMethodExceedsIt() {
    assertThatThrownBy(() -> FaultChecks.check(kill(null), HOUR, Duration.ofMinutes(40)))
        .hasMessageContaining("add ttl: 1h (at least the method's 40m,");
  }

  @Test
  void aMissingTtlIsToldTheMethodWhenTheMethodItselfExceedsTheMaxDuration() {
    // The planner refuses such a method on its own; the suggestion still names a ttl that would
    // cover it rather than one that is too short.
    assertThatThrownBy(() -> FaultChecks.check(kill(null), HOUR, Duration.ofMinutes(90)))
        .hasMessageContaining("add ttl: 1h30m (at least the method's 1h30m,");
  }
}
