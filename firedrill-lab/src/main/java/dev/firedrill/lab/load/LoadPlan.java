package dev.firedrill.lab.load;

import dev.firedrill.net.Loopback;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What to send: {@code rate} requests per second for {@code duration}, request {@code i} due at
 * {@code start + i / rate}, in all {@code rate × duration} requests.
 *
 * @param url the target; loopback only (127.0.0.0/8, ::1, localhost) unless {@code allowRemote}
 * @param method GET, POST, PUT, DELETE, PATCH or HEAD (bodies are empty)
 * @param rate requests per second, more than 0, at most {@value #MAX_RATE}
 * @param duration more than 0, at most 24h
 * @param maxInFlight requests in flight at most; a due request waits for a slot
 * @param timeout the client timeout of each request: connecting (if need be), sending and the whole
 *     response
 * @param experimentId sent as {@code baggage: chaos.experiment.id=<id>} when present
 * @param allowRemote whether a target outside loopback is allowed
 */
public record LoadPlan(
    URI url,
    String method,
    double rate,
    Duration duration,
    int maxInFlight,
    Duration timeout,
    Optional<String> experimentId,
    boolean allowRemote) {

  public static final double MAX_RATE = 100_000;
  public static final Duration MAX_DURATION = Duration.ofHours(24);
  public static final int DEFAULT_MAX_IN_FLIGHT = 1_000;
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
  private static final Set<String> METHODS =
      Set.of("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD");

  public LoadPlan {
    Objects.requireNonNull(experimentId, "experimentId");
    if (url == null
        || !("http".equals(url.getScheme()) || "https".equals(url.getScheme()))
        || url.getHost() == null) {
      throw new IllegalArgumentException(
          "url \""
              + (url == null ? null : Loopback.safe(url))
              + "\" is not usable (expected http://HOST:PORT/PATH)");
    }
    if (!allowRemote && !Loopback.isLoopback(url)) {
      throw new IllegalArgumentException(
          "url "
              + Loopback.safe(url)
              + " is not on loopback (expected 127.0.0.0/8, ::1 "
              + "or localhost; pass --allow-remote to send load elsewhere)");
    }
    if (method == null || !METHODS.contains(method)) {
      throw new IllegalArgumentException(
          "method \""
              + method
              + "\" is not usable (expected one of GET, POST, PUT, DELETE, PATCH, HEAD)");
    }
    if (!(rate > 0 && rate <= MAX_RATE)) {
      throw new IllegalArgumentException(
          "rate "
              + rate
              + " is not usable (expected more than 0, at most "
              + (long) MAX_RATE
              + " per second)");
    }
    if (duration == null
        || duration.isNegative()
        || duration.isZero()
        || duration.compareTo(MAX_DURATION) > 0) {
      throw new IllegalArgumentException(
          "duration " + duration + " is not usable (expected more than 0, at most 24h)");
    }
    if (maxInFlight < 1 || maxInFlight > 100_000) {
      throw new IllegalArgumentException(
          "max in flight " + maxInFlight + " is not usable (expected 1 to 100000)");
    }
    if (timeout == null
        || timeout.isNegative()
        || timeout.isZero()
        || timeout.compareTo(Duration.ofMinutes(5)) > 0) {
      throw new IllegalArgumentException(
          "timeout " + timeout + " is not usable (expected more than 0, at most 5m)");
    }
    if (experimentId.isPresent()
        && (experimentId.get().isBlank() || experimentId.get().length() > 200)) {
      throw new IllegalArgumentException(
          "experiment id \""
              + experimentId.get()
              + "\" is not usable (expected 1 to 200 characters)");
    }
    long total = (long) Math.floor(rate * (duration.toNanos() / 1e9) + 1e-9);
    if (total < 1) {
      throw new IllegalArgumentException(
          "rate "
              + rate
              + " for "
              + duration
              + " sends no request (expected rate × duration of at least 1)");
    }
  }

  /**
   * GET, loopback only, at most {@value #DEFAULT_MAX_IN_FLIGHT} in flight, a 5 s timeout, no
   * experiment id.
   */
  public static LoadPlan of(URI url, double rate, Duration duration) {
    return new LoadPlan(
        url,
        "GET",
        rate,
        duration,
        DEFAULT_MAX_IN_FLIGHT,
        DEFAULT_TIMEOUT,
        Optional.empty(),
        false);
  }

  public LoadPlan withMethod(String value) {
    return new LoadPlan(
        url, value, rate, duration, maxInFlight, timeout, experimentId, allowRemote);
  }

  public LoadPlan withMaxInFlight(int value) {
    return new LoadPlan(url, method, rate, duration, value, timeout, experimentId, allowRemote);
  }

  public LoadPlan withTimeout(Duration value) {
    return new LoadPlan(url, method, rate, duration, maxInFlight, value, experimentId, allowRemote);
  }

  public LoadPlan withExperimentId(String value) {
    return new LoadPlan(
        url, method, rate, duration, maxInFlight, timeout, Optional.ofNullable(value), allowRemote);
  }

  public LoadPlan withAllowRemote(boolean value) {
    return new LoadPlan(url, method, rate, duration, maxInFlight, timeout, experimentId, value);
  }

  /** {@code floor(rate × duration)}. */
  public long totalRequests() {
    return (long) Math.floor(rate * (duration.toNanos() / 1e9) + 1e-9);
  }

  /** When request {@code i} is due, in nanoseconds after the start: {@code i / rate}. */
  public long dueOffsetNanos(long i) {
    return Math.round(i * 1e9 / rate);
  }
}
