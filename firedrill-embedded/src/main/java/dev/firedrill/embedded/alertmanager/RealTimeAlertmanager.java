package dev.firedrill.embedded.alertmanager;

import dev.firedrill.embedded.alertmanager.alert.Alert;
import dev.firedrill.embedded.alertmanager.config.AlertmanagerConfig;
import dev.firedrill.embedded.alertmanager.dispatch.Delivery;
import dev.firedrill.embedded.alertmanager.dispatch.Dispatcher;
import dev.firedrill.embedded.alertmanager.webhook.SendResult;
import dev.firedrill.embedded.alertmanager.webhook.Sender;
import dev.firedrill.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The embedded Alertmanager in real time: one thread runs the dispatcher when something falls due
 * (by the injected clock) or alerts arrive; webhooks go out on a small pool, so a slow receiver
 * holds up only its own group, as each aggregation group has its own goroutine in Alertmanager.
 */
public final class RealTimeAlertmanager implements EmbeddedAlertmanager, AutoCloseable {

  /** The longest the loop waits without looking at the clock again (a clock may jump). */
  private static final Duration MAX_WAIT = Duration.ofSeconds(1);

  private static final Duration CLOSE_WAIT = Duration.ofSeconds(2);
  private static final int SENDERS = 4;

  private final AlertmanagerConfig config;
  private final Clock clock;
  private final Sender sender;
  private final Dispatcher dispatcher;
  private final Instant startedAt;
  private final Consumer<String> events;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ExecutorService senders;
  private final Thread loop;
  private boolean dirty;
  private volatile boolean closed;

  private RealTimeAlertmanager(
      AlertmanagerConfig config,
      Clock clock,
      Sender sender,
      String externalUrl,
      Consumer<String> events) {
    this.config = Objects.requireNonNull(config, "config");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sender = Objects.requireNonNull(sender, "sender");
    this.events = Objects.requireNonNull(events, "events");
    this.startedAt = clock.now();
    this.dispatcher = new Dispatcher(config, startedAt, externalUrl, events);
    AtomicInteger n = new AtomicInteger();
    this.senders =
        Executors.newFixedThreadPool(
            SENDERS,
            r -> {
              Thread t = new Thread(r, "embedded-alertmanager-webhook-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    this.loop = new Thread(this::run, "embedded-alertmanager-dispatcher");
    this.loop.setDaemon(true);
  }

  /** Starts the dispatcher thread. */
  public static RealTimeAlertmanager start(
      AlertmanagerConfig config,
      Clock clock,
      Sender sender,
      String externalUrl,
      Consumer<String> events) {
    RealTimeAlertmanager alertmanager =
        new RealTimeAlertmanager(config, clock, sender, externalUrl, events);
    alertmanager.loop.start();
    return alertmanager;
  }

  @Override
  public AlertmanagerConfig config() {
    return config;
  }

  @Override
  public Clock clock() {
    return clock;
  }

  @Override
  public Instant startedAt() {
    return startedAt;
  }

  @Override
  public void put(List<Alert> alerts) {
    dispatcher.put(alerts, clock.now());
    wake();
  }

  @Override
  public List<Alert> alerts() {
    return dispatcher.alerts();
  }

  /**
   * Stops the loop and the webhooks in flight; returns within a few seconds whatever a receiver
   * does.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    wake();
    senders.shutdownNow();
    try {
      loop.join(CLOSE_WAIT.toMillis());
      senders.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    try {
      while (!closed) {
        Instant now = clock.now();
        Instant due = dispatcher.nextDue();
        if (due.isAfter(now)) {
          await(Duration.between(now, due));
          continue;
        }
        for (Delivery delivery : dispatcher.runDue(now)) {
          senders.execute(() -> send(delivery));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closed while handing out webhooks: nothing more to send
    }
  }

  private void send(Delivery delivery) {
    SendResult result;
    try {
      result = sender.send(delivery.url(), delivery.payload(), delivery.timeout(clock.now()));
    } catch (InterruptedException e) {
      // Only close() interrupts a sender; the flush ends with it.
      Thread.currentThread().interrupt();
      return;
    } catch (RuntimeException e) {
      events.accept(delivery.integrationName() + ": " + e);
      result = new SendResult.Retry(e.toString());
    }
    dispatcher.completed(delivery, result, clock.now());
    wake();
  }

  private void await(Duration wait) throws InterruptedException {
    long nanos = Math.min(wait.toNanos(), MAX_WAIT.toNanos());
    lock.lock();
    try {
      if (!dirty && !closed) {
        changed.awaitNanos(nanos);
      }
      dirty = false;
    } finally {
      lock.unlock();
    }
  }

  private void wake() {
    lock.lock();
    try {
      dirty = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
