package dev.firedrill.embedded.alertmanager;

import dev.firedrill.embedded.alertmanager.alert.Alert;
import dev.firedrill.embedded.alertmanager.config.AlertmanagerConfig;
import dev.firedrill.embedded.alertmanager.dispatch.Delivery;
import dev.firedrill.embedded.alertmanager.dispatch.Dispatcher;
import dev.firedrill.embedded.alertmanager.webhook.SendResult;
import dev.firedrill.embedded.alertmanager.webhook.Sender;
import dev.firedrill.embedded.drive.Recurring;
import dev.firedrill.embedded.drive.VirtualDriver;
import dev.firedrill.time.Clock;
import dev.firedrill.time.VirtualClock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The embedded Alertmanager on a virtual clock: its dispatcher is work on a {@link VirtualDriver},
 * so every move of the driver's clock runs each flush, retry and cleanup due on the way, at its own
 * instant, sending webhooks synchronously. A drill of hours is predicted in milliseconds; an
 * embedded Prometheus on the same driver runs in the same time, in time order with it.
 */
public final class VirtualAlertmanager implements EmbeddedAlertmanager, AutoCloseable {

  private final AlertmanagerConfig config;
  private final Dispatcher dispatcher;
  private final Sender sender;
  private final VirtualClock clock;
  private final Instant startedAt;
  private final VirtualDriver.Added work;

  private VirtualAlertmanager(
      AlertmanagerConfig config,
      VirtualDriver driver,
      Sender sender,
      String externalUrl,
      Consumer<String> events) {
    this.config = Objects.requireNonNull(config, "config");
    this.sender = Objects.requireNonNull(sender, "sender");
    this.clock = driver.clock();
    this.startedAt = clock.now();
    this.dispatcher = new Dispatcher(config, startedAt, externalUrl, events);
    this.work = driver.add(List.of(new Flushes()));
  }

  /**
   * Starts it at the driver's now, its work after whatever the driver has already: at an instant
   * both are due, work added first runs first.
   *
   * @param externalUrl the {@code externalURL} webhook payloads carry
   * @param events a line for each failed webhook attempt
   */
  public static VirtualAlertmanager start(
      AlertmanagerConfig config,
      VirtualDriver driver,
      Sender sender,
      String externalUrl,
      Consumer<String> events) {
    return new VirtualAlertmanager(config, driver, sender, externalUrl, events);
  }

  public Dispatcher dispatcher() {
    return dispatcher;
  }

  @Override
  public AlertmanagerConfig config() {
    return config;
  }

  /** The driver's clock: moving it runs what falls due. */
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

  /** Takes its work off the driver. */
  @Override
  public void close() {
    work.close();
  }

  /**
   * The dispatcher as the driver runs it: due when it says, each attempt sent and reported back at
   * once.
   */
  private final class Flushes implements Recurring {

    @Override
    public String name() {
      return "alertmanager dispatcher";
    }

    /**
     * What it says, even before {@code t}: alerts just put may make a group due at the instant it
     * last ran.
     */
    @Override
    public Instant nextAtOrAfter(Instant t) {
      return dispatcher.nextDue();
    }

    @Override
    public void run(Instant at) throws InterruptedException {
      for (Delivery delivery : dispatcher.runDue(at)) {
        SendResult result = sender.send(delivery.url(), delivery.payload(), delivery.timeout(at));
        dispatcher.completed(delivery, result, at);
      }
    }
  }
}
