package dev.firedrill.watchdog;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.FaultKinds;
import dev.firedrill.fault.ProcessId;
import dev.firedrill.fault.ProcessTable;
import dev.firedrill.fault.WorkerLauncher;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * firedrill's side of the watchdog: holds a fault (the holds file, written before the fault is
 * injected; the watchdog started at the first hold), renews the lease at every measurement, and
 * releases a fault its own rollback undid. Any fault whose {@code ttlEnforcer()} is {@code
 * WATCHDOG} is held this way without doing anything itself.
 */
public final class DeadMansSwitch {

  /** Three measurement intervals, and never less than this, unless a test lowers the floor. */
  public static final Duration MIN_GRACE = Duration.ofSeconds(30);

  /** The lowest floor {@link #grace} accepts: a lease still outlives a slow measurement. */
  public static final Duration LOWEST_FLOOR = Duration.ofSeconds(1);

  private final WatchdogFiles files;
  private final String experimentId;
  private final Duration methodDuration;
  private final Duration grace;
  private final WatchdogStarter starter;
  private final Clock clock;
  private Holds holds;
  private long sequence;
  private Optional<ProcessId> process = Optional.empty();

  /** Once the run said it ended, later measurements (the recovery) renew nothing. */
  private boolean ended;

  public DeadMansSwitch(
      WatchdogFiles files,
      String experimentId,
      Duration methodDuration,
      Duration grace,
      WorkerLauncher launcher,
      ProcessTable processes,
      Clock clock) {
    this.files = files;
    this.experimentId = experimentId;
    this.methodDuration = methodDuration;
    this.grace = grace;
    this.starter = new WatchdogStarter(launcher, processes, clock);
    this.clock = clock;
    this.holds = new Holds(experimentId, methodDuration, List.of());
  }

  /**
   * The lease's grace: three measurement intervals, at least {@code floor}; {@code floor} is {@link
   * #MIN_GRACE} except in tests, and never below {@link #LOWEST_FLOOR}.
   */
  public static Duration grace(Duration interval, Duration floor) {
    Duration bounded = floor.compareTo(LOWEST_FLOOR) < 0 ? LOWEST_FLOOR : floor;
    Duration three = interval.multipliedBy(3);
    return three.compareTo(bounded) < 0 ? bounded : three;
  }

  public WatchdogFiles files() {
    return files;
  }

  public Duration grace() {
    return grace;
  }

  /** The watchdog's process, once the first hold started it. */
  public Optional<ProcessId> process() {
    return process;
  }

  /**
   * Holds the fault at {@code index} before it is injected, with the state it has now (what it
   * planned); starts the watchdog at the first hold. Returns the watchdog's process when this call
   * started it.
   */
  public synchronized Optional<ProcessId> hold(int index, Fault fault) throws FaultException {
    Duration ttl =
        fault
            .spec()
            .ttl()
            .orElseThrow(
                () -> new FaultException(fault.spec().kind() + ": the watchdog needs a ttl"));
    JsonNode spec = FaultKinds.installed().writeJournal(fault.spec());
    holds =
        holds.with(
            new Hold(
                index,
                fault.spec().kind(),
                spec,
                AtomicJson.MAPPER.valueToTree(fault.state()),
                ttl,
                clock.now().plus(ttl),
                false));
    try {
      holds.write(files.holds());
      if (process.isEmpty()) {
        writeLease(false);
      }
    } catch (IOException e) {
      throw new FaultException(
          "cannot write the watchdog's holds " + files.holds() + ": " + e.getMessage(), e);
    }
    if (process.isPresent()) {
      return Optional.empty();
    }
    process = Optional.of(starter.start(files));
    return process;
  }

  /** The fault's state after injection, so the watchdog reverts what really started. */
  public synchronized void update(int index, Fault fault) {
    holds
        .hold(index)
        .ifPresent(
            hold -> {
              holds = holds.with(hold.withState(AtomicJson.MAPPER.valueToTree(fault.state())));
              writeQuietly();
            });
  }

  /** firedrill undid the fault itself: the watchdog drops it. */
  public synchronized void release(int index) {
    holds
        .hold(index)
        .ifPresent(
            hold -> {
              holds = holds.with(hold.asDone());
              writeQuietly();
            });
  }

  /** Called at every measurement. */
  public synchronized void renew() {
    if (process.isEmpty() || ended) {
      return;
    }
    try {
      writeLease(false);
    } catch (IOException e) {
      // Missing one renewal is what the grace is for; several make the watchdog act, as it should.
    }
  }

  /** The run is over: a watchdog with nothing pending exits; one with pending holds undoes them. */
  public synchronized void end() {
    if (process.isEmpty()) {
      return;
    }
    ended = true;
    try {
      writeLease(true);
    } catch (IOException e) {
      // The grace runs out instead and the watchdog acts on whatever is still pending.
    }
  }

  /**
   * For {@code cleanup}: marks the fault at {@code index} done in the holds beside a journal, so a
   * still-running watchdog drops it. Nothing to do when there are no holds.
   */
  public static void release(WatchdogFiles files, int index) throws IOException {
    Optional<Holds> read = Holds.read(files.holds());
    if (read.isPresent()) {
      Optional<Hold> hold = read.get().hold(index);
      if (hold.isPresent() && !hold.get().done()) {
        read.get().with(hold.get().asDone()).write(files.holds());
      }
    }
  }

  private void writeLease(boolean ended) throws IOException {
    new Lease(++sequence, grace, ended, clock.now()).write(files.lease());
  }

  private void writeQuietly() {
    try {
      holds.write(files.holds());
    } catch (IOException e) {
      // The watchdog keeps the older holds: it reverts a fault firedrill already undid, which an
      // idempotent revert allows, or reverts with the planned state.
    }
  }

  @Override
  public String toString() {
    return "DeadMansSwitch[" + experimentId + ", " + methodDuration + ", " + files + "]";
  }
}
