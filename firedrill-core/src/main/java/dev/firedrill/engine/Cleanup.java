package dev.firedrill.engine;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.FaultKinds;
import dev.firedrill.fault.Verification;
import dev.firedrill.time.Clock;
import dev.firedrill.time.Durations;
import dev.firedrill.watchdog.DeadMansSwitch;
import dev.firedrill.watchdog.WatchdogFiles;
import dev.firedrill.watchdog.WatchdogRecord;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reverts what a journal shows as injected and not reverted: the way out after firedrill was
 * killed. Each fault is first checked against the system, so a fault whose TTL already ended it is
 * reported as nothing left to revert.
 */
public final class Cleanup {

  /** What cleanup did to one fault. */
  public record Outcome(int index, String kind, boolean clean, String detail) {
    public String line() {
      return "fault " + index + " (" + kind + "): " + detail;
    }
  }

  /**
   * Every fault cleanup found pending, in the journal's order; none when nothing was left to
   * revert.
   */
  public record Result(List<Outcome> outcomes) {

    public Result {
      outcomes = List.copyOf(outcomes);
    }

    /** A fault is still in place, or may be: its outcome's line says what to run by hand. */
    public boolean needsHuman() {
      return outcomes.stream().anyMatch(outcome -> !outcome.clean());
    }
  }

  private final FaultProvider faults;
  private final Clock clock;

  public Cleanup(FaultProvider faults, Clock clock) {
    this.faults = faults;
    this.clock = clock;
  }

  /**
   * Cleans up every pending fault of {@code journal}, read from {@code file}, records the result in
   * it and, when there was anything to clean up, writes it back to {@code file}.
   */
  public Result run(Journal journal, JournalFile file, Consumer<Outcome> progress) {
    List<Outcome> outcomes = new ArrayList<>();
    Optional<WatchdogFiles> watchdog = journal.watchdogFiles();
    WatchdogRecord record = readRecord(watchdog);
    for (JsonNode node : journal.faults()) {
      if (!node.path("injected").asBoolean(false) || node.path("reverted").asBoolean(false)) {
        continue;
      }
      Outcome outcome = clean(journal, node, record.last(node.path("index").asInt()));
      if (outcome.clean() && watchdog.isPresent()) {
        release(watchdog.get(), outcome.index());
      }
      outcomes.add(outcome);
      progress.accept(outcome);
    }
    if (!outcomes.isEmpty()) {
      file.write(journal);
    }
    JournalFile.removeLeftoverTemps(file.path());
    watchdog.ifPresent(
        w -> List.of(w.holds(), w.lease(), w.record()).forEach(JournalFile::removeLeftoverTemps));
    return new Result(outcomes);
  }

  /**
   * When the fault's ttl, counted from when its injection started, has passed: whatever the
   * interrupted injection started has ended by itself.
   */
  private Optional<Instant> ttlEnded(JsonNode node, FaultSpec spec) {
    if (spec.ttl().isEmpty() || !node.hasNonNull("started_at")) {
      return Optional.empty();
    }
    Instant started;
    try {
      started = Instant.parse(node.get("started_at").asText());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
    Instant end = started.plus(spec.ttl().get());
    return clock.now().isAfter(end) ? Optional.of(end) : Optional.empty();
  }

  /** What the watchdog undid; nothing when there was none, or its record cannot be read. */
  private static WatchdogRecord readRecord(Optional<WatchdogFiles> files) {
    if (files.isEmpty()) {
      return new WatchdogRecord(List.of());
    }
    try {
      return WatchdogRecord.read(files.get().record());
    } catch (IOException | RuntimeException e) {
      // Cleanup then checks each fault against the system, as it would without a watchdog.
      return new WatchdogRecord(List.of());
    }
  }

  /** A still-running watchdog drops what cleanup found clean. */
  private static void release(WatchdogFiles files, int index) {
    try {
      DeadMansSwitch.release(files, index);
    } catch (IOException | RuntimeException e) {
      // It reverts the fault once more at its lease or ttl: reverts are idempotent.
    }
  }

  private Outcome clean(Journal journal, JsonNode node, Optional<WatchdogRecord.Entry> undone) {
    int index = node.path("index").asInt();
    String kind = node.path("kind").asText();
    Fault fault;
    try {
      FaultSpec spec = FaultKinds.installed().readJournal(node.path("spec"));
      if (!node.hasNonNull("state")) {
        // firedrill died inside inject(), before the journal learned what it started.
        Optional<Instant> ended = ttlEnded(node, spec);
        if (ended.isPresent()) {
          String detail =
              "nothing left to revert: no state was recorded (firedrill stopped while injecting"
                  + " it), and its ttl of "
                  + Durations.format(spec.ttl().get())
                  + " ended it by itself at "
                  + ended.get();
          journal.faultRevert(index, clock.now(), true, 0, "cleanup: " + detail, null);
          return new Outcome(index, kind, true, detail);
        }
        return new Outcome(
            index,
            kind,
            false,
            "no state was recorded (firedrill stopped while injecting it), so "
                + "cleanup cannot find what it started; its ttl of "
                + spec.ttl().map(Durations::format).orElse("(none)")
                + " from "
                + node.path("started_at").asText("its start")
                + " ends it by itself");
      }
      Map<String, Object> state =
          Jsons.MAPPER.convertValue(node.get("state"), new TypeReference<Map<String, Object>>() {});
      fault = faults.restore(spec, state);
    } catch (FaultException | IllegalArgumentException e) {
      return new Outcome(
          index, kind, false, "cannot rebuild the fault from the journal: " + e.getMessage());
    }
    Verification before = fault.verify();
    if (before.reverted() && undone.map(WatchdogRecord.Entry::ok).orElse(false)) {
      String line = undone.get().line() + "; verified again: " + before.detail();
      journal.faultRevert(index, clock.now(), true, 0, "cleanup: " + line, null);
      return new Outcome(index, kind, true, line);
    }
    if (before.reverted()) {
      journal.faultRevert(
          index, clock.now(), true, 0, "cleanup: nothing left to revert: " + before.detail(), null);
      return new Outcome(index, kind, true, "nothing left to revert: " + before.detail());
    }
    String detail;
    try {
      fault.revert();
      Verification afterRevert = fault.verify();
      if (afterRevert.reverted()) {
        journal.faultRevert(index, clock.now(), true, 1, "cleanup: " + afterRevert.detail(), null);
        return new Outcome(index, kind, true, "reverted: " + afterRevert.detail());
      }
      detail = "still present after revert: " + afterRevert.detail();
    } catch (FaultException e) {
      detail = e.getMessage();
    }
    if (undone.isPresent() && !undone.get().ok()) {
      detail = detail + "; before that, " + undone.get().line();
    }
    journal.faultRevert(
        index, clock.now(), false, 1, "cleanup: " + detail, fault.manualRevertCommand());
    return new Outcome(
        index, kind, false, detail + "; run by hand: " + fault.manualRevertCommand());
  }
}
