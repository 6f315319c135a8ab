package dev.firedrill.watchdog;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.FaultKinds;
import dev.firedrill.fault.Verification;
import dev.firedrill.time.Clock;
import dev.firedrill.time.Durations;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The watchdog's judgement, one {@link #tick} at a time: reads the holds and the lease, and undoes
 * (restore, revert, verify) each held fault whose lease went unrenewed for its grace or whose ttl
 * ran out, recording what it did. Time is the injected clock's monotonic time, counted from when
 * this watchdog first saw each renewal and each hold.
 */
final class Keeper {

  /** Attempts per fault, one per tick, before the record says it needs a human. */
  static final int ATTEMPTS = 3;

  /** The grace before firedrill's first lease, and for a lease file that cannot be read. */
  static final Duration DEFAULT_GRACE = Duration.ofSeconds(30);

  /** Restores a held fault from its spec and state, as {@code firedrill cleanup} does. */
  interface Restorer {
    Fault restore(Holds holds, Hold hold) throws FaultException;
  }

  private final WatchdogFiles files;
  private final Clock clock;
  private final Restorer restorer;
  private final PrintStream log;
  private final long startNanos;
  private long renewedNanos;
  private Long lastSequence;
  private final Map<Integer, Long> firstSeen = new HashMap<>();
  private final Map<Integer, Integer> attempts = new HashMap<>();
  private final Set<Integer> finished = new HashSet<>();

  Keeper(WatchdogFiles files, Clock clock, Restorer restorer, PrintStream log) {
    this.files = files;
    this.clock = clock;
    this.restorer = restorer;
    this.log = log;
    this.startNanos = clock.nanoTime();
    this.renewedNanos = startNanos;
  }

  /** How the watchdog process restores: the installed kinds, on this host, limited by nothing. */
  static Fault restoreOnThisHost(Holds holds, Hold hold) throws FaultException {
    FaultSpec spec;
    try {
      spec = FaultKinds.installed().readJournal(hold.spec());
    } catch (IllegalArgumentException e) {
      throw new FaultException("cannot read the held spec: " + e.getMessage(), e);
    }
    BlastRadius revertOnly =
        new BlastRadius(1, holds.methodDuration(), 1, Integer.MAX_VALUE, Integer.MAX_VALUE);
    FaultContext context =
        FaultContext.onThisHost(holds.experimentId(), revertOnly, holds.methodDuration());
    Map<String, Object> state =
        AtomicJson.MAPPER.convertValue(hold.state(), new TypeReference<Map<String, Object>>() {});
    return FaultKinds.installed().restore(spec, context, state);
  }

  /** Whether any hold has been read: the watchdog reports ready only then. */
  boolean holding() throws IOException {
    return Holds.read(files.holds()).map(h -> !h.faults().isEmpty()).orElse(false);
  }

  /** One look at the files; false once nothing is left to hold. */
  boolean tick() {
    long now = clock.nanoTime();
    Optional<Holds> read;
    Optional<Lease> lease;
    try {
      read = Holds.read(files.holds());
      lease = Lease.read(files.lease());
    } catch (IOException | RuntimeException e) {
      // A file caught mid-rename or unreadable: the next tick reads it again; the grace still runs.
      log.println("watchdog: cannot read its files: " + e.getMessage());
      return now - startNanos < DEFAULT_GRACE.toNanos() * 2;
    }
    if (lease.isPresent() && !Long.valueOf(lease.get().sequence()).equals(lastSequence)) {
      lastSequence = lease.get().sequence();
      renewedNanos = now;
    }
    Duration grace = lease.map(Lease::grace).orElse(DEFAULT_GRACE);
    boolean ended = lease.map(Lease::ended).orElse(false);
    if (read.isEmpty()) {
      return !ended && now - startNanos < grace.toNanos();
    }
    Holds holds = read.get();
    boolean leaseLost = now - renewedNanos > grace.toNanos();
    for (Hold hold : open(holds)) {
      long seen = firstSeen.computeIfAbsent(hold.index(), i -> now);
      String why =
          leaseLost
              ? "firedrill did not renew its lease for " + Durations.format(grace)
              : ended
                  ? "firedrill ended without undoing it"
                  : now - seen >= hold.ttl().toNanos()
                      ? "its ttl of " + Durations.format(hold.ttl()) + " ran out"
                      : null;
      if (why != null) {
        undo(holds, hold, why);
      }
    }
    return !open(holds).isEmpty() || (holds.faults().isEmpty() && !ended);
  }

  private List<Hold> open(Holds holds) {
    return holds.pending().stream().filter(hold -> !finished.contains(hold.index())).toList();
  }

  private void undo(Holds holds, Hold hold, String why) {
    int attempt = attempts.merge(hold.index(), 1, Integer::sum);
    String detail;
    String manual = "# see the journal's plan for this fault";
    try {
      Fault fault = restorer.restore(holds, hold);
      manual = fault.manualRevertCommand();
      fault.revert();
      Verification verification = fault.verify();
      if (verification.reverted()) {
        finish(hold, why, true, verification.detail(), manual);
        return;
      }
      detail = "still present after revert: " + verification.detail();
    } catch (FaultException e) {
      detail = e.getMessage();
    } catch (RuntimeException e) {
      detail = "unexpected error: " + e;
    }
    log.println("watchdog: fault " + hold.index() + " attempt " + attempt + ": " + detail);
    if (attempt >= ATTEMPTS) {
      finish(hold, why, false, detail + " (after " + attempt + " attempts)", manual);
    }
  }

  private void finish(Hold hold, String why, boolean ok, String detail, String manual) {
    finished.add(hold.index());
    WatchdogRecord.Entry entry =
        new WatchdogRecord.Entry(hold.index(), hold.kind(), why, clock.now(), ok, detail, manual);
    log.println("watchdog: fault " + hold.index() + " (" + hold.kind() + "): " + entry.line());
    try {
      WatchdogRecord.read(files.record()).with(entry).write(files.record());
    } catch (IOException | RuntimeException e) {
      log.println("watchdog: cannot write its record " + files.record() + ": " + e.getMessage());
    }
  }
}
