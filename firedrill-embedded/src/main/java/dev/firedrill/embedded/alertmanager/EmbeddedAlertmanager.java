package dev.firedrill.embedded.alertmanager;

import dev.firedrill.embedded.alertmanager.alert.Alert;
import dev.firedrill.embedded.alertmanager.config.AlertmanagerConfig;
import dev.firedrill.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * A running embedded Alertmanager, whatever drives its time: {@link VirtualAlertmanager} as work on
 * a virtual clock's driver, or {@link RealTimeAlertmanager} on a thread. The HTTP API serves
 * either.
 */
public sealed interface EmbeddedAlertmanager permits VirtualAlertmanager, RealTimeAlertmanager {

  AlertmanagerConfig config();

  /** The clock its timing and the API's times come from. */
  Clock clock();

  /** When it started, for {@code /api/v2/status}. */
  Instant startedAt();

  /** Takes alerts {@code POST /api/v2/alerts} has validated and completed with their times. */
  void put(List<Alert> alerts);

  /** Every alert held, resolved ones too until they are collected. */
  List<Alert> alerts();
}
