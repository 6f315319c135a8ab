package dev.firedrill.simulate;

import java.time.Duration;
import java.util.Objects;

/** What one fault does to the simulated lab while it is on. */
public sealed interface Effect {

  /** A share of the calls to {@code service} wait {@code added} longer (an http-latency toxic). */
  record Slower(String service, double share, Latency added) implements Effect {}

  /** A share of the calls to {@code service} are answered {@code status} by the proxy, which never calls it. */
  record Failing(String service, double share, int status) implements Effect {}

  /** A share of the calls to {@code service} have their connection reset (http-reset). */
  record Reset(String service, double share) implements Effect {}

  /**
   * A share of the calls to {@code service} are held, then their connection closed after
   * {@code hold}; zero holds them for as long as the fault is on (http-timeout).
   */
  record Held(String service, double share, Duration hold) implements Effect {}

  /** {@code service}'s process is gone: calls are refused, scrapes fail; its counters restart from zero. */
  record Down(String service) implements Effect {}

  /** Every service on the host answers {@code workers} times the model's per-worker latency slower (cpu-burn). */
  record CpuBurn(int workers) implements Effect {}

  /** Scrapes of {@code job} fail while its service goes on serving (exporter-down). */
  record ExporterDown(String job) implements Effect {
    public ExporterDown {
      Objects.requireNonNull(job, "job");
    }
  }
}
