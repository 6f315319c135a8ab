package dev.firedrill.simulate;

import dev.firedrill.experiment.Numbers;
import dev.firedrill.time.Durations;
import java.time.Duration;
import java.util.Objects;

/** What one fault does to the simulated lab while it is on. */
public sealed interface Effect {

  /** One line for plans and journals. */
  String text();

  private static String percent(double share) {
    return Numbers.format(share * 100) + "%";
  }

  /** A share of the calls to {@code service} wait {@code added} longer (an http-latency toxic). */
  record Slower(String service, double share, Latency added) implements Effect {
    @Override
    public String text() {
      return percent(share)
          + " of the calls to "
          + service
          + " slower by "
          + Numbers.format(
              added.points().stream().mapToDouble(p -> p.seconds() * p.weight()).sum() * 1000)
          + " ms on average";
    }
  }

  /**
   * A share of the calls to {@code service} are answered {@code status} by the proxy, which never
   * calls it.
   */
  record Failing(String service, double share, int status) implements Effect {
    @Override
    public String text() {
      return percent(share)
          + " of the calls to "
          + service
          + " answered "
          + status
          + " by the proxy";
    }
  }

  /** A share of the calls to {@code service} have their connection reset (http-reset). */
  record Reset(String service, double share) implements Effect {
    @Override
    public String text() {
      return percent(share) + " of the calls to " + service + " reset";
    }
  }

  /**
   * A share of the calls to {@code service} are held, then their connection closed after {@code
   * hold}; zero holds them for as long as the fault is on (http-timeout).
   */
  record Held(String service, double share, Duration hold) implements Effect {
    @Override
    public String text() {
      return percent(share)
          + " of the calls to "
          + service
          + " held "
          + (hold.isZero() ? "until the fault ends" : "for " + Durations.format(hold));
    }
  }

  /**
   * {@code service}'s process is gone: calls are refused, scrapes fail; its counters restart from
   * zero.
   */
  record Down(String service) implements Effect {
    @Override
    public String text() {
      return service
          + " down (calls refused, scrapes failing), restarted with fresh counters at the rollback";
    }
  }

  /**
   * Every service on the host answers {@code workers} times the model's per-worker latency slower
   * (cpu-burn).
   */
  record CpuBurn(int workers) implements Effect {
    @Override
    public String text() {
      return workers + " cpu-burn workers slowing every service";
    }
  }

  /** Scrapes of {@code job} fail while its service goes on serving (exporter-down). */
  record ExporterDown(String job) implements Effect {
    public ExporterDown {
      Objects.requireNonNull(job, "job");
    }

    @Override
    public String text() {
      return "scrapes of job " + job + " failing (up 0, its series stale)";
    }
  }
}
