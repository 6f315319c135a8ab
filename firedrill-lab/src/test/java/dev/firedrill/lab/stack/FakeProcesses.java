package dev.firedrill.lab.stack;

import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.ProcessId;
import dev.firedrill.fault.ProcessInfo;
import dev.firedrill.fault.ProcessTable;
import dev.firedrill.fault.Signal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A process table whose processes each answer signals in their own way, and which keeps every
 * signal sent.
 */
final class FakeProcesses implements ProcessTable {

  /** How a process answers a signal. */
  enum Temper {
    EXITS_ON_TERM,
    EXITS_ON_KILL,
    UNKILLABLE,
    NOT_OURS
  }

  private final Map<Long, ProcessInfo> running = new LinkedHashMap<>();
  private final Map<Long, Temper> tempers = new LinkedHashMap<>();
  final List<String> sent = new ArrayList<>();

  ProcessId start(long pid, Temper temper) {
    ProcessInfo info = new ProcessInfo(pid, 1, 1000 + pid, 'S', List.of("proc-" + pid));
    running.put(pid, info);
    tempers.put(pid, temper);
    return info.id();
  }

  @Override
  public List<ProcessInfo> list() {
    return List.copyOf(running.values());
  }

  @Override
  public Optional<ProcessInfo> find(long pid) {
    return Optional.ofNullable(running.get(pid));
  }

  @Override
  public boolean signal(ProcessId id, Signal signal) throws FaultException {
    if (!alive(id)) {
      return false;
    }
    Temper temper = tempers.get(id.pid());
    if (temper == Temper.NOT_OURS) {
      throw new FaultException("kill " + id.pid() + ": Operation not permitted");
    }
    sent.add(signal + " " + id.pid());
    if (temper == Temper.EXITS_ON_TERM || temper == Temper.EXITS_ON_KILL && signal == Signal.KILL) {
      running.remove(id.pid());
    }
    return true;
  }
}
