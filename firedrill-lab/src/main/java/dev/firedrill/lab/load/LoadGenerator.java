package dev.firedrill.lab.load;

import dev.firedrill.lab.trace.TraceParent;
import dev.firedrill.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.BooleanSupplier;

/**
 * An open-loop load generator, in the manner of wrk2: request {@code i} is due at {@code start + i
 * / rate} whatever the server does, so a slow server does not slow the offered load, and each
 * request's latency is measured from its <em>intended</em> send time, so time spent queueing behind
 * a stall counts (no coordinated omission).
 *
 * <p><b>The in-flight cap.</b> At most {@link LoadPlan#maxInFlight()} requests are in flight. When
 * the cap is reached, the due request waits for a slot and the requests due after it wait behind
 * it; as slots free up they leave at once, in order, late, and their latency still counts from
 * their intended times. Each slot frees up within the client timeout, so the cap delays requests
 * but never hides them. The run stops sending at its hard end, {@code duration + timeout} after the
 * start (or when stopped): requests due but not sent by then are reported as {@code unsent}. It
 * then waits at most {@code timeout + 1s} for the requests in flight, and reports those still
 * without an outcome as {@code unfinished}.
 *
 * <p>The schedule reads time and sleeps only through the injected {@link Clock}; waits for a slot
 * are bounded and re-check the stop condition every 200 ms.
 */
public final class LoadGenerator {

  private static final long CHECK_NANOS = Duration.ofMillis(200).toNanos();
  private static final long GRACE_NANOS = Duration.ofSeconds(1).toNanos();

  private final LoadPlan plan;
  private final Transport transport;
  private final LoadMetrics metrics;
  private final Clock clock;
  private final AutoCloseable owned;

  public LoadGenerator(LoadPlan plan, Transport transport, LoadMetrics metrics, Clock clock) {
    this(plan, transport, metrics, clock, null);
  }

  private LoadGenerator(
      LoadPlan plan, Transport transport, LoadMetrics metrics, Clock clock, AutoCloseable owned) {
    this.plan = plan;
    this.transport = transport;
    this.metrics = metrics;
    this.clock = clock;
    this.owned = owned;
  }

  /**
   * Over HTTP, on the system clock. The generator owns its connections and closes them when its run
   * ends, so it runs once: a second run finds every request refused.
   */
  public static LoadGenerator http(LoadPlan plan, LoadMetrics metrics) {
    HttpTransport transport = new HttpTransport(plan);
    return new LoadGenerator(plan, transport, metrics, Clock.system(), transport);
  }

  public LoadResult run() {
    return run(() -> false);
  }

  /**
   * Sends the plan; returns when every request was sent and answered, or the bounds were reached.
   * An interrupt stops the run early (the result says so) and the flag stays set.
   */
  public LoadResult run(BooleanSupplier stop) {
    long total = plan.totalRequests();
    int cap = plan.maxInFlight();
    Semaphore slots = new Semaphore(cap);
    AtomicLongArray outcomes = new AtomicLongArray(Outcome.values().length);
    AtomicLong completed = new AtomicLong();
    AtomicBoolean over = new AtomicBoolean();
    LatencyRecorder latencies = new LatencyRecorder();
    LatencyRecorder lags = new LatencyRecorder();
    AtomicLong maxLatency = new AtomicLong();
    long maxLag = 0;
    long start = clock.nanoTime();
    long hardEnd = start + plan.duration().toNanos() + plan.timeout().toNanos();
    long lastSend = start;
    long sent = 0;
    String stopped = "";
    try {
      for (long i = 0; i < total; i++) {
        long due = start + plan.dueOffsetNanos(i);
        if (!waitUntil(due, stop)) {
          stopped = "stop requested";
          break;
        }
        if (!acquire(slots, hardEnd, stop)) {
          stopped =
              stop.getAsBoolean()
                  ? "stop requested"
                  : "no in-flight slot freed up before the run's end (duration + timeout)";
          break;
        }
        long now = clock.nanoTime();
        long lag = now - due;
        lags.record(lag);
        maxLag = Math.max(maxLag, lag);
        lastSend = now;
        sent++;
        send(due, slots, outcomes, completed, latencies, maxLatency, over);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopped = "interrupted";
    }
    long unfinished = drain(slots, cap, sent, completed);
    long achievedNanos = lastSend - start + Math.round(1e9 / plan.rate());
    Map<Outcome, Long> byOutcome = new EnumMap<>(Outcome.class);
    for (Outcome outcome : Outcome.values()) {
      byOutcome.put(outcome, outcomes.get(outcome.ordinal()));
    }
    LoadResult result =
        new LoadResult(
            plan,
            sent,
            total - sent,
            unfinished,
            byOutcome,
            sent == 0 ? 0 : sent * 1e9 / achievedNanos,
            latencies.quantile(0.5),
            latencies.quantile(0.99),
            Duration.ofNanos(maxLatency.get()),
            lags.quantile(0.99),
            Duration.ofNanos(maxLag),
            stopped);
    over.set(
        true); // requests ending from now on (closing ends them refused) were counted unfinished
    closeOwned();
    return result;
  }

  private void send(
      long due,
      Semaphore slots,
      AtomicLongArray outcomes,
      AtomicLong completed,
      LatencyRecorder latencies,
      AtomicLong maxLatency,
      AtomicBoolean over) {
    CompletableFuture<Outcome> pending;
    try {
      pending = transport.send(TraceParent.newRoot());
    } catch (RuntimeException e) {
      pending = CompletableFuture.completedFuture(Outcome.REFUSED);
    }
    pending.whenComplete(
        (outcome, failure) -> {
          try {
            if (over.get()) {
              return;
            }
            Outcome result = outcome == null ? Outcome.REFUSED : outcome;
            long latency = clock.nanoTime() - due;
            metrics.record(result, latency);
            latencies.record(latency);
            maxLatency.accumulateAndGet(latency, Math::max);
            outcomes.incrementAndGet(result.ordinal());
            completed.incrementAndGet();
          } finally {
            slots.release();
          }
        });
  }

  private void closeOwned() {
    if (owned != null) {
      try {
        owned.close();
      } catch (Exception e) {
        // the run is over; nothing is left to lose
      }
    }
  }

  /** Sleeps through the clock until {@code due}, in steps of at most 200 ms; false when stopped. */
  private boolean waitUntil(long due, BooleanSupplier stop) throws InterruptedException {
    while (true) {
      if (stop.getAsBoolean()) {
        return false;
      }
      long left = due - clock.nanoTime();
      if (left <= 0) {
        return true;
      }
      clock.sleep(Duration.ofNanos(Math.min(left, CHECK_NANOS)));
    }
  }

  /** A slot, waiting at most until {@code hardEnd}; false when none came or the run was stopped. */
  private boolean acquire(Semaphore slots, long hardEnd, BooleanSupplier stop)
      throws InterruptedException {
    if (slots.tryAcquire()) {
      return true;
    }
    while (!stop.getAsBoolean()) {
      long left = hardEnd - clock.nanoTime();
      if (left <= 0) {
        return false;
      }
      if (slots.tryAcquire(Math.min(left, CHECK_NANOS), TimeUnit.NANOSECONDS)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Waits at most timeout + 1 s for every slot to come back; returns how many requests had no
   * outcome.
   */
  private long drain(Semaphore slots, int cap, long sent, AtomicLong completed) {
    long deadline = clock.nanoTime() + plan.timeout().toNanos() + GRACE_NANOS;
    boolean interrupted = Thread.interrupted();
    try {
      while (completed.get() < sent) {
        long left = deadline - clock.nanoTime();
        if (left <= 0) {
          break;
        }
        try {
          if (slots.tryAcquire(cap, Math.min(left, CHECK_NANOS), TimeUnit.NANOSECONDS)) {
            slots.release(cap);
            break;
          }
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    return sent - completed.get();
  }
}
