package dev.firedrill.engine;

import dev.firedrill.alerting.Detection;
import dev.firedrill.time.Clock;
import java.util.Objects;
import java.util.Optional;

/** Everything a drill touches outside itself. */
public record DrillPorts(
    Measurer measurer,
    FaultProvider faults,
    StopSignal stop,
    Clock clock,
    DrillListener listener,
    Optional<JournalFile> journalFile,
    Optional<Detection> detection) {

  public DrillPorts {
    Objects.requireNonNull(measurer, "measurer");
    Objects.requireNonNull(faults, "faults");
    stop = stop == null ? StopSignal.none() : stop;
    Objects.requireNonNull(clock, "clock");
    listener = listener == null ? DrillListener.noop() : listener;
    journalFile = journalFile == null ? Optional.empty() : journalFile;
    detection = detection == null ? Optional.empty() : detection.filter(Detection::watching);
  }

  /** A drill that watches no alerts. */
  public DrillPorts(Measurer measurer, FaultProvider faults, StopSignal stop, Clock clock, DrillListener listener,
      Optional<JournalFile> journalFile) {
    this(measurer, faults, stop, clock, listener, journalFile, Optional.empty());
  }
}
