package dev.firedrill.cli;

import dev.firedrill.testing.Stacks;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The {@link RealStackDrills} against each pair of {@link Stacks}. The two pairs run at the same
 * time (their stacks are on free ports); a pair's own drills run one after another, since they
 * share its service and Prometheus (the class's lock keeps them on one thread).
 */
class RealStackDrillTest {

  @Nested
  @Execution(ExecutionMode.CONCURRENT)
  @ResourceLock("RealStackDrillTest.Stable")
  class Stable extends RealStackDrills {
    Stable() {
      super(Stacks::stable);
    }
  }

  @Nested
  @Execution(ExecutionMode.CONCURRENT)
  @ResourceLock("RealStackDrillTest.Current")
  class Current extends RealStackDrills {
    Current() {
      super(Stacks::current);
    }
  }
}
