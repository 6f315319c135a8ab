package dev.firedrill.watchdog;

import java.nio.file.Path;

/**
 * The three files beside a journal that firedrill and its watchdog share: the holds (each held
 * fault, written by firedrill), the lease (renewed by firedrill at every measurement) and the
 * record (what the watchdog undid, read by {@code cleanup}).
 */
public record WatchdogFiles(Path holds, Path lease, Path record) {

  public WatchdogFiles {
    holds = holds.toAbsolutePath();
    lease = lease.toAbsolutePath();
    record = record.toAbsolutePath();
  }

  /** {@code x.json} has {@code x.holds.json}, {@code x.lease.json} and {@code x.watchdog.json}. */
  public static WatchdogFiles beside(Path journal) {
    String name = journal.getFileName().toString();
    String stem = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
    return new WatchdogFiles(
        journal.resolveSibling(stem + ".holds.json"),
        journal.resolveSibling(stem + ".lease.json"),
        journal.resolveSibling(stem + ".watchdog.json"));
  }
}
