package dev.firedrill.fault;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The signals a process-kill fault may send, plus CONT, which only reverts a STOP. */
public enum Signal {
  KILL,
  TERM,
  INT,
  HUP,
  QUIT,
  USR1,
  USR2,
  STOP,
  CONT;

  /**
   * Accepts {@code KILL}, {@code kill} or {@code SIGKILL}; CONT is not a fault, so it is refused.
   */
  public static Signal parseFaultSignal(String text) throws FaultException {
    String name = text == null ? "" : text.strip().toUpperCase(Locale.ROOT);
    name = name.startsWith("SIG") ? name.substring(3) : name;
    for (Signal signal : values()) {
      if (signal != CONT && signal.name().equals(name)) {
        return signal;
      }
    }
    String allowed =
        Arrays.stream(values())
            .filter(s -> s != CONT)
            .map(Signal::name)
            .collect(Collectors.joining(", "));
    throw new FaultException(
        "process-kill: signal \"" + text + "\" is not supported; expected one of " + allowed);
  }

  public String sigName() {
    return "SIG" + name();
  }
}
