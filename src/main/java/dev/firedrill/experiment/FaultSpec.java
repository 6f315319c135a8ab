package dev.firedrill.experiment;

import java.time.Duration;
import java.util.Optional;

/** A fault as the experiment file describes it. Each kind is one record. */
public sealed interface FaultSpec permits FaultSpec.ProcessKill, FaultSpec.CpuBurn {

  /** The name used in files, journals and messages, for example {@code process-kill}. */
  String kind();

  /** How long the fault may live if firedrill itself dies; enforced by the injector. */
  Optional<Duration> ttl();

  /** A short description of what the fault touches, used in markers and the console. */
  String target();

  /**
   * Signals processes whose {@code /proc/PID/cmdline} contains {@code match}. With a percentage
   * the selection rounds up (at least one process); the limit in the blast radius does not round.
   */
  record ProcessKill(String match, String signal, Optional<Double> percent, Optional<Duration> ttl)
      implements FaultSpec {

    public static final String DEFAULT_SIGNAL = "KILL";

    public ProcessKill {
      signal = signal == null ? DEFAULT_SIGNAL : signal;
      percent = percent == null ? Optional.empty() : percent;
      ttl = ttl == null ? Optional.empty() : ttl;
    }

    @Override
    public String kind() {
      return "process-kill";
    }

    @Override
    public String target() {
      return "processes matching \"" + match + "\"";
    }
  }

  /** Starts {@code workers} busy processes that exit by themselves after the TTL. */
  record CpuBurn(int workers, Optional<Duration> ttl) implements FaultSpec {

    public CpuBurn {
      ttl = ttl == null ? Optional.empty() : ttl;
    }

    @Override
    public String kind() {
      return "cpu-burn";
    }

    @Override
    public String target() {
      return workers + " cpu worker" + (workers == 1 ? "" : "s") + " on this host";
    }
  }
}
