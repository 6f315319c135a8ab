package dev.firedrill.history;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One expected alert in one run, as the history keeps it. {@code alertKey} is the alert with its
 * matchers ({@code CheckoutErrorBudgetBurn{service="checkout"}}): the identity runs are compared
 * by. {@code routing} is the receiver check's text ({@code yes}, {@code NO}, {@code -}); {@code
 * held} is this alert's result, {@code verdict} the drill's.
 */
public record DetectionRecord(
    String runId,
    Instant runAt,
    String experiment,
    String alert,
    String alertKey,
    String expect,
    boolean fired,
    Optional<Duration> timeToDetect,
    Optional<Duration> timeToNotify,
    List<String> receivers,
    Optional<String> expectedReceiver,
    String routing,
    boolean held,
    String verdict,
    String journal) {

  /** The run id's suffix for a journal of {@code firedrill simulate}, imported when asked. */
  public static final String SIMULATED = " (simulated)";

  /** Whether the row came from a simulation, not from a drill that ran. */
  public boolean simulated() {
    return runId.endsWith(SIMULATED);
  }

  public static final String ROUTED_RIGHT = "yes";
  public static final String ROUTED_WRONG = "NO";
  public static final String EXPECT_FIRING = "firing";

  public DetectionRecord {
    Objects.requireNonNull(runId, "runId");
    // The store keeps milliseconds; a record read back must equal the one written.
    runAt = Objects.requireNonNull(runAt, "runAt").truncatedTo(ChronoUnit.MILLIS);
    receivers = List.copyOf(receivers);
  }

  public boolean expectedToFire() {
    return EXPECT_FIRING.equals(expect);
  }

  public boolean misrouted() {
    return ROUTED_WRONG.equals(routing);
  }

  /**
   * The receivers as one text, sorted so that runs compare equal whatever order the stack listed
   * them in.
   */
  public String receiversText() {
    return String.join(", ", receivers.stream().sorted().toList());
  }
}
