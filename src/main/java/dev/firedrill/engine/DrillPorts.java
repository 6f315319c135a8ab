package dev.firedrill.engine;

import dev.firedrill.alerting.Detection;
import dev.firedrill.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Everything a drill touches outside itself. */
public record DrillPorts(
    Measurer measurer,
    FaultProvider faults,
    StopSignal stop,
    Clock clock,
    Optional<JournalFile> journalFile,
    Optional<Detection> detection,
    DrillObserver observer) {

  public DrillPorts {
    Objects.requireNonNull(measurer, "measurer");
    Objects.requireNonNull(faults, "faults");
    stop = stop == null ? StopSignal.none() : stop;
    Objects.requireNonNull(clock, "clock");
    journalFile = journalFile == null ? Optional.empty() : journalFile;
    detection = detection == null ? Optional.empty() : detection.filter(Detection::watching);
    // Wrapped so that an observer that throws can never reach the drill or its rollback.
    observer = observer == null ? DrillObserver.noop() : DrillObserver.composite(List.of(observer));
  }

  /** A drill that watches alerts and marks nothing. */
  public DrillPorts(Measurer measurer, FaultProvider faults, StopSignal stop, Clock clock,
      Optional<JournalFile> journalFile, Optional<Detection> detection) {
    this(measurer, faults, stop, clock, journalFile, detection, DrillObserver.noop());
  }

  public DrillPorts withObserver(DrillObserver observer) {
    return new DrillPorts(measurer, faults, stop, clock, journalFile, detection, observer);
  }

  /** A drill that watches no alerts. */
  public DrillPorts(Measurer measurer, FaultProvider faults, StopSignal stop, Clock clock,
      Optional<JournalFile> journalFile) {
    this(measurer, faults, stop, clock, journalFile, Optional.empty(), DrillObserver.noop());
  }
}
