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
import java.util.function.Consumer;

/**
 * The embedded Alertmanager on a virtual clock: time stands still until {@link #advance}, which runs every
 * flush, retry and cleanup due on the way, at its own instant, sending webhooks synchronously. A drill of
 * hours is predicted in milliseconds; {@link #clock()} is the clock to give whatever else shares this time.
 */
public final class VirtualAlertmanager implements EmbeddedAlertmanager {

  private final AlertmanagerConfig config;
  private final Dispatcher dispatcher;
  private final Sender sender;
  private final Instant startedAt;
  private final Clock clock = new VirtualClock();
  private Instant now;
  private long nanos;

  private VirtualAlertmanager(AlertmanagerConfig config, Instant start, Sender sender, String externalUrl,
      Consumer<String> events) {
    this.config = Objects.requireNonNull(config, "config");
    this.sender = Objects.requireNonNull(sender, "sender");
    this.startedAt = start;
    this.now = start;
    this.dispatcher = new Dispatcher(config, start, externalUrl, events);
  }

  /**
   * @param externalUrl the {@code externalURL} webhook payloads carry
   * @param events a line for each failed webhook attempt
   */
  public static VirtualAlertmanager start(AlertmanagerConfig config, Instant start, Sender sender, String externalUrl,
      Consumer<String> events) {
    return new VirtualAlertmanager(config, start, sender, externalUrl, events);
  }

  /** Moves time forward by {@code duration}, running what falls due on the way; ZERO runs what is due now. */
  public void advance(Duration duration) throws InterruptedException {
    if (duration.isNegative()) {
      throw new IllegalArgumentException("cannot advance a clock by a negative duration " + duration);
    }
    Instant target;
    synchronized (this) {
      target = now.plus(duration);
    }
    while (true) {
      Instant due = dispatcher.nextDue();
      if (due.isAfter(target)) {
        break;
      }
      Instant at = moveTo(due);
      for (Delivery delivery : dispatcher.runDue(at)) {
        SendResult result = sender.send(delivery.url(), delivery.payload(), delivery.timeout(at));
        dispatcher.completed(delivery, result, at);
      }
    }
    moveTo(target);
  }

  /** Sets the clock to {@code at} unless it is past it already; returns the time now. */
  private synchronized Instant moveTo(Instant at) {
    if (at.isAfter(now)) {
      nanos += Duration.between(now, at).toNanos();
      now = at;
    }
    return now;
  }

  public Dispatcher dispatcher() {
    return dispatcher;
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
  }

  @Override
  public List<Alert> alerts() {
    return dispatcher.alerts();
  }

  /** This Alertmanager's time; sleeping on it advances it, so flushes due meanwhile run. */
  private final class VirtualClock implements Clock {

    @Override
    public Instant now() {
      synchronized (VirtualAlertmanager.this) {
        return now;
      }
    }

    @Override
    public long nanoTime() {
      synchronized (VirtualAlertmanager.this) {
        return nanos;
      }
    }

    @Override
    public void sleep(Duration duration) throws InterruptedException {
      if (Thread.currentThread().isInterrupted()) {
        throw new InterruptedException("interrupted before sleeping on the virtual clock");
      }
      advance(duration);
    }
  }
}
