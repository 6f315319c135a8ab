package dev.firedrill.engine;

import dev.firedrill.alerting.Detection;
import dev.firedrill.time.Clock;
import dev.firedrill.watchdog.DeadMansSwitch;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a drill touches outside itself. No part is ever null: a drill that is not stopped from
 * outside or not observed gets the {@code noop()} port, and one without a journal file or alerts to
 * watch gets an empty one. Build it with {@link #builder}.
 */
public record DrillPorts(
    Measurer measurer,
    FaultProvider faults,
    StopSignal stop,
    Clock clock,
    Optional<JournalFile> journalFile,
    Optional<Detection> detection,
    DrillObserver observer,
    Optional<DeadMansSwitch> watchdog) {

  public DrillPorts {
    Objects.requireNonNull(measurer, "measurer");
    Objects.requireNonNull(faults, "faults");
    Objects.requireNonNull(stop, "stop");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(journalFile, "journalFile");
    Objects.requireNonNull(watchdog, "watchdog");
    detection = Objects.requireNonNull(detection, "detection").filter(Detection::watching);
    // Wrapped so that an observer that throws can never reach the drill or its rollback.
    observer = DrillObserver.composite(List.of(Objects.requireNonNull(observer, "observer")));
  }

  /** The ports every drill needs; the optional ones start as no-ops. */
  public static Builder builder(Measurer measurer, FaultProvider faults, Clock clock) {
    return new Builder(measurer, faults, clock);
  }

  /**
   * Sets the optional ports; each setter refuses null, because leaving it out is what "none" means.
   */
  public static final class Builder {
    private final Measurer measurer;
    private final FaultProvider faults;
    private final Clock clock;
    private StopSignal stop = StopSignal.noop();
    private Optional<JournalFile> journalFile = Optional.empty();
    private Optional<Detection> detection = Optional.empty();
    private DrillObserver observer = DrillObserver.noop();
    private Optional<DeadMansSwitch> watchdog = Optional.empty();

    private Builder(Measurer measurer, FaultProvider faults, Clock clock) {
      this.measurer = Objects.requireNonNull(measurer, "measurer");
      this.faults = Objects.requireNonNull(faults, "faults");
      this.clock = Objects.requireNonNull(clock, "clock");
    }

    public Builder stop(StopSignal stop) {
      this.stop = Objects.requireNonNull(stop, "stop");
      return this;
    }

    /** Where the journal is rewritten after every step. */
    public Builder journal(JournalFile journalFile) {
      this.journalFile = Optional.of(journalFile);
      return this;
    }

    /** The alerts to watch; one that expects none is the same as none. */
    public Builder detection(Detection detection) {
      this.detection = Optional.of(detection);
      return this;
    }

    public Builder observer(DrillObserver observer) {
      this.observer = Objects.requireNonNull(observer, "observer");
      return this;
    }

    /**
     * Holds the ttl of every fault whose {@code ttlEnforcer()} is the watchdog; a drill without one
     * refuses to inject such a fault.
     */
    public Builder watchdog(DeadMansSwitch watchdog) {
      this.watchdog = Optional.of(watchdog);
      return this;
    }

    public DrillPorts build() {
      return new DrillPorts(
          measurer, faults, stop, clock, journalFile, detection, observer, watchdog);
    }
  }
}
