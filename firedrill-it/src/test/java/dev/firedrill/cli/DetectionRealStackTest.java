package dev.firedrill.cli;

import dev.firedrill.testing.Stacks;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The {@link DetectionDrills} against each pair of {@link Stacks}. The two pairs' labs run at the
 * same time (each on free ports of its own); a pair's own drills run one after another, since they
 * share its lab (the class's lock keeps them on one thread).
 */
class DetectionRealStackTest {

  @Nested
  @Execution(ExecutionMode.CONCURRENT)
  @ResourceLock("DetectionRealStackTest.Stable")
  class Stable extends DetectionDrills {
    Stable() {
      super(Stacks::stable);
    }
  }

  @Nested
  @Execution(ExecutionMode.CONCURRENT)
  @ResourceLock("DetectionRealStackTest.Current")
  class Current extends DetectionDrills {
    Current() {
      super(Stacks::current);
    }
  }
}
