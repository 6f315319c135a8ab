package dev.firedrill.alerting;

import dev.firedrill.alerting.receiver.Notification;
import dev.firedrill.alerting.receiver.NotifiedAlert;
import dev.firedrill.alerting.receiver.WebhookReceiver;
import dev.firedrill.prometheus.PrometheusAlert;
import dev.firedrill.prometheus.PrometheusAlertsApi;
import dev.firedrill.prometheus.PrometheusConfig;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.prometheus.Rule;
import dev.firedrill.prometheus.RuleGroup;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The real stack behind {@link AlertStack}: Prometheus's API, Alertmanager's, firedrill's own receiver. */
public final class LiveAlertStack implements AlertStack {

  private static final Duration LINK_TIMEOUT = Duration.ofSeconds(5);

  private final PrometheusAlertsApi prometheus;
  private final Optional<AlertmanagerClient> alertmanager;
  private final Optional<WebhookReceiver> receiver;
  private final HttpClient links = HttpClient.newBuilder().connectTimeout(LINK_TIMEOUT)
      .followRedirects(HttpClient.Redirect.NORMAL).build();

  public LiveAlertStack(PrometheusAlertsApi prometheus, Optional<AlertmanagerClient> alertmanager,
      Optional<WebhookReceiver> receiver) {
    this.prometheus = prometheus;
    this.alertmanager = alertmanager;
    this.receiver = receiver;
  }

  @Override
  public RuleBook rules() throws AlertStackException {
    try {
      List<RuleBook.AlertRule> alerting = new ArrayList<>();
      Map<String, String> recording = new LinkedHashMap<>();
      for (RuleGroup group : prometheus.rules()) {
        for (Rule rule : group.rules()) {
          if (rule instanceof Rule.Alerting alert) {
            alerting.add(new RuleBook.AlertRule(alert.name(), alert.query(), alert.duration(), group.interval(),
                alert.labels(), alert.annotations()));
          } else if (rule instanceof Rule.Recording record) {
            recording.putIfAbsent(record.name(), record.query());
          }
        }
      }
      PrometheusConfig config = PrometheusConfig.parse(prometheus.config());
      return new RuleBook(alerting, recording, config.scrapeInterval(), config.evaluationInterval());
    } catch (PrometheusException | RuntimeException e) {
      throw new AlertStackException(e.getMessage(), e);
    }
  }

  @Override
  public List<PromAlert> alerts() throws AlertStackException {
    try {
      return prometheus.alerts().stream()
          .map(a -> new PromAlert(a.labels(), a.annotations(), a.state(), a.activeAt()))
          .toList();
    } catch (PrometheusException e) {
      throw new AlertStackException(e.getMessage(), e);
    }
  }

  @Override
  public List<RoutedAlert> routed() throws AlertStackException {
    if (alertmanager.isEmpty()) {
      return List.of();
    }
    try {
      return alertmanager.get().alerts().stream()
          .map(a -> new RoutedAlert(a.labels(), a.annotations(), a.startsAt(), a.fingerprint(), a.receivers()))
          .toList();
    } catch (AlertmanagerException e) {
      throw new AlertStackException(e.getMessage(), e);
    }
  }

  @Override
  public List<Delivery> deliveries() {
    List<Delivery> deliveries = new ArrayList<>();
    for (Notification notification : receiver.map(WebhookReceiver::notifications).orElse(List.of())) {
      for (NotifiedAlert alert : notification.alerts()) {
        deliveries.add(new Delivery(notification.receivedAt(), notification.receiver(), alert.status(), alert.labels(),
            alert.annotations(), alert.startsAt(), alert.fingerprint()));
      }
    }
    return deliveries;
  }

  @Override
  public List<Truncation> truncations() {
    return receiver.map(WebhookReceiver::notifications).orElse(List.of()).stream()
        .filter(n -> n.truncatedAlerts() > 0)
        .map(n -> new Truncation(n.receivedAt(), n.receiver(), n.groupKey(), n.truncatedAlerts()))
        .toList();
  }

  @Override
  public Optional<Integer> linkStatus(String url) {
    try {
      HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(LINK_TIMEOUT).GET().build();
      return Optional.of(links.send(request, HttpResponse.BodyHandlers.discarding()).statusCode());
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
