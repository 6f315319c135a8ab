package dev.firedrill.fault;

import java.util.List;

/** One row of the process table: what {@code /proc/PID/stat} and {@code /proc/PID/cmdline} say. */
public record ProcessInfo(long pid, long ppid, long startTicks, char state, List<String> args) {

  public ProcessInfo {
    args = List.copyOf(args);
  }

  public ProcessId id() {
    return new ProcessId(pid, startTicks);
  }

  /** The arguments joined with spaces, as {@code ps} shows them. */
  public String commandLine() {
    return String.join(" ", args);
  }

  /**
   * A zombie (Z) or dead (X) process still has a /proc entry but can no longer run or be undone.
   */
  public boolean alive() {
    return state != 'Z' && state != 'X';
  }

  /** Stopped by a signal (T); a traced stop (t) is a debugger's business, not ours. */
  public boolean stopped() {
    return state == 'T';
  }
}
