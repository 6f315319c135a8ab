package dev.firedrill.embedded.alertmanager.dispatch;

import dev.firedrill.alerting.routes.Route;
import dev.firedrill.embedded.alertmanager.alert.Alert;
import dev.firedrill.embedded.alertmanager.alert.AlertStore;
import dev.firedrill.embedded.alertmanager.alert.LabelSets;
import dev.firedrill.embedded.alertmanager.config.AlertmanagerConfig;
import dev.firedrill.embedded.alertmanager.config.Receiver;
import dev.firedrill.embedded.alertmanager.config.WebhookConfig;
import dev.firedrill.embedded.alertmanager.webhook.SendResult;
import dev.firedrill.embedded.alertmanager.webhook.WebhookAlert;
import dev.firedrill.embedded.alertmanager.webhook.WebhookPayload;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Alertmanager's dispatcher and notification pipeline without threads or a clock of its own: alerts
 * go in with {@link #put}; whoever drives it asks {@link #nextDue}, calls {@link #runDue} at that
 * time, sends the {@link Delivery}s it gets and reports each back with {@link #completed}. So one
 * dispatcher runs on a virtual clock in a test and in real time in a server, with the same timing:
 *
 * <ul>
 *   <li>a new group flushes {@code group_wait} after its first alert, or at once when that alert
 *       started more than {@code group_wait} ago (only before the group's first flush);
 *   <li>then every {@code group_interval} after the previous flush, sending when an alert fires
 *       that was not notified, when one resolved (with {@code send_resolved}), when all resolved,
 *       or when {@code repeat_interval} has passed since the last notification;
 *   <li>resolved alerts leave their group after a flush whose webhooks all succeeded; a group left
 *       empty is dropped at the dispatcher's next 30 s cleanup, and one made again waits {@code
 *       group_wait} anew;
 *   <li>a webhook answering 5xx or not at all is retried with backoff until the next flush is due.
 * </ul>
 *
 * All methods are synchronized; the alerts put are those {@code POST /api/v2/alerts} validated.
 */
public final class Dispatcher {

  /** Alertmanager's dispatcher drops empty groups on this tick. */
  static final Duration CLEANUP_INTERVAL = Duration.ofSeconds(30);

  /** Alertmanager's {@code --alerts.gc-interval} default: resolved alerts leave the store. */
  static final Duration GC_INTERVAL = Duration.ofMinutes(30);

  static final Duration FIRST_BACKOFF = Duration.ofMillis(500);
  static final Duration MAX_BACKOFF = Duration.ofSeconds(60);

  private final AlertmanagerConfig config;
  private final String externalUrl;
  private final Consumer<String> events;
  private final AlertStore store = new AlertStore();
  private final NotificationLog log = new NotificationLog();
  private final Map<Route, String> routeKeys = new IdentityHashMap<>();
  private final Map<Route, Map<Long, AggregationGroup>> groups = new IdentityHashMap<>();
  private final List<Delivery> retries = new ArrayList<>();
  private long groupSequence;
  private Instant nextCleanup;
  private Instant nextCollection;

  /**
   * @param externalUrl the {@code externalURL} of webhook payloads
   * @param events one line for each failed webhook attempt, for a log
   */
  public Dispatcher(
      AlertmanagerConfig config, Instant start, String externalUrl, Consumer<String> events) {
    this.config = Objects.requireNonNull(config, "config");
    this.externalUrl = Objects.requireNonNull(externalUrl, "externalUrl");
    this.events = Objects.requireNonNull(events, "events");
    this.nextCleanup = start.plus(CLEANUP_INTERVAL);
    this.nextCollection = start.plus(GC_INTERVAL);
    keys(config.routes().root(), "");
  }

  /**
   * Stores the alerts (merged with those held, as Alertmanager's provider does) and routes each
   * into its groups.
   */
  public synchronized void put(List<Alert> alerts, Instant now) {
    for (Alert alert : store.put(alerts, now)) {
      for (Route route : config.routes().match(alert.labels())) {
        insert(alert, route, now);
      }
    }
  }

  /** Every alert held, resolved ones too until the store's collection; in no particular order. */
  public synchronized List<Alert> alerts() {
    return store.list();
  }

  /** When {@link #runDue} has work next; the periodic cleanup makes this never empty. */
  public synchronized Instant nextDue() {
    Instant next = nextCleanup.isBefore(nextCollection) ? nextCleanup : nextCollection;
    for (Map<Long, AggregationGroup> byLabels : groups.values()) {
      for (AggregationGroup group : byLabels.values()) {
        if (group.inFlight == null && group.nextFlush.isBefore(next)) {
          next = group.nextFlush;
        }
      }
    }
    for (Delivery retry : retries) {
      if (retry.due.isBefore(next)) {
        next = retry.due;
      }
    }
    return next;
  }

  /**
   * Runs what is due at {@code now}: cleanups, flushes, retries; returns the webhook attempts to
   * make now.
   */
  public synchronized List<Delivery> runDue(Instant now) {
    if (!now.isBefore(nextCleanup)) {
      for (Map<Long, AggregationGroup> byLabels : groups.values()) {
        byLabels.values().removeIf(group -> group.alerts.isEmpty() && group.inFlight == null);
      }
      groups.values().removeIf(Map::isEmpty);
      while (!now.isBefore(nextCleanup)) {
        nextCleanup = nextCleanup.plus(CLEANUP_INTERVAL);
      }
    }
    if (!now.isBefore(nextCollection)) {
      store.collectResolved(now);
      while (!now.isBefore(nextCollection)) {
        nextCollection = nextCollection.plus(GC_INTERVAL);
      }
    }
    List<AggregationGroup> due = new ArrayList<>();
    for (Map<Long, AggregationGroup> byLabels : groups.values()) {
      for (AggregationGroup group : byLabels.values()) {
        if (group.inFlight == null && !group.nextFlush.isAfter(now)) {
          due.add(group);
        }
      }
    }
    due.sort(
        Comparator.comparing((AggregationGroup g) -> g.nextFlush)
            .thenComparingLong(g -> g.sequence));
    List<Delivery> deliveries = new ArrayList<>();
    for (AggregationGroup group : due) {
      deliveries.addAll(flush(group, now));
    }
    for (var it = retries.iterator(); it.hasNext(); ) {
      Delivery retry = it.next();
      if (!retry.due.isAfter(now)) {
        it.remove();
        deliveries.add(retry);
      }
    }
    return deliveries;
  }

  /** The outcome of an attempt {@link #runDue} handed out, at {@code now}. */
  public synchronized void completed(Delivery delivery, SendResult result, Instant now) {
    Flush flush = delivery.flush;
    if (result instanceof SendResult.Delivered) {
      log.log(
          delivery.receiver(),
          delivery.integration,
          delivery.groupKey(),
          delivery.firing,
          delivery.resolved,
          now);
    } else if (result instanceof SendResult.Retry retry) {
      Instant next = now.plus(backoff(delivery.attempt));
      if (next.isBefore(flush.deadline)) {
        events.accept(
            delivery.integrationName()
                + ": attempt "
                + delivery.attempt
                + " failed, retrying in "
                + backoff(delivery.attempt).toMillis()
                + "ms: "
                + retry.error());
        retries.add(delivery.retryAt(next));
        return;
      }
      events.accept(
          delivery.integrationName()
              + ": giving up after "
              + delivery.attempt
              + " attempts (the next flush is due): "
              + retry.error());
      flush.failed = true;
    } else if (result instanceof SendResult.Failed failed) {
      events.accept(
          delivery.integrationName()
              + ": not retried after attempt "
              + delivery.attempt
              + ": "
              + failed.error());
      flush.failed = true;
    }
    flush.pending--;
    if (flush.pending == 0) {
      finish(flush);
    }
  }

  private void insert(Alert alert, Route route, Instant now) {
    TreeMap<String, String> groupLabels = new TreeMap<>();
    alert
        .labels()
        .forEach(
            (name, value) -> {
              if (route.options().groupByAll() || route.options().groupBy().contains(name)) {
                groupLabels.put(name, value);
              }
            });
    Map<Long, AggregationGroup> byLabels =
        groups.computeIfAbsent(route, r -> new LinkedHashMap<>());
    AggregationGroup group =
        byLabels.computeIfAbsent(
            LabelSets.fingerprint(groupLabels),
            fp ->
                new AggregationGroup(
                    route,
                    groupLabels,
                    routeKeys.get(route) + ":" + LabelSets.goString(groupLabels),
                    groupSequence++,
                    now.plus(route.options().groupWait())));
    group.alerts.put(alert.fingerprint(), alert);
    // Alertmanager flushes at once when the alert waited group_wait already (before the group's
    // first flush).
    if (!group.hasFlushed && alert.startsAt().plus(route.options().groupWait()).isBefore(now)) {
      group.nextFlush = now;
    }
  }

  private List<Delivery> flush(AggregationGroup group, Instant now) {
    Duration interval = group.route.options().groupInterval();
    group.nextFlush = now.plus(interval);
    group.hasFlushed = true;
    if (group.alerts.isEmpty()) {
      return List.of();
    }
    List<Alert> sorted = new ArrayList<>(group.alerts.values());
    sorted.sort(Comparator.comparing(Alert::labels, LabelSets.ALERT_ORDER));
    List<WebhookAlert> alerts =
        sorted.stream().map(a -> new WebhookAlert(a, a.resolvedAt(now))).toList();
    Set<Long> firing = new HashSet<>();
    Set<Long> resolved = new HashSet<>();
    for (WebhookAlert alert : alerts) {
      (alert.resolved() ? resolved : firing).add(alert.alert().fingerprint());
    }
    Flush flush = new Flush(group, alerts, now.plus(interval));
    String receiverName = group.route.receiver();
    Receiver receiver = config.receivers().get(receiverName);
    List<Delivery> deliveries = new ArrayList<>();
    for (int i = 0; i < receiver.webhooks().size(); i++) {
      WebhookConfig webhook = receiver.webhooks().get(i);
      NotificationLog.Entry entry = log.get(receiverName, i, group.groupKey);
      if (!NotificationLog.needsUpdate(
          entry,
          firing,
          resolved,
          webhook.sendResolved(),
          group.route.options().repeatInterval(),
          now)) {
        continue;
      }
      List<WebhookAlert> sent =
          webhook.sendResolved() ? alerts : alerts.stream().filter(a -> !a.resolved()).toList();
      if (sent.isEmpty()) {
        // Only resolved alerts and no send_resolved: logged as notified, so the next flush knows.
        log.log(receiverName, i, group.groupKey, firing, resolved, now);
        continue;
      }
      byte[] payload =
          WebhookPayload.encode(
              receiverName, group.groupKey, group.labels, sent, externalUrl, webhook.maxAlerts());
      deliveries.add(new Delivery(flush, i, webhook, firing, resolved, payload, 1, now));
    }
    flush.pending = deliveries.size();
    if (deliveries.isEmpty()) {
      finish(flush);
    } else {
      group.inFlight = flush;
    }
    return deliveries;
  }

  /**
   * After a flush whose webhooks all succeeded, its resolved alerts leave the group unless sent
   * again since.
   */
  private void finish(Flush flush) {
    AggregationGroup group = flush.group;
    group.inFlight = null;
    if (flush.failed) {
      return;
    }
    for (WebhookAlert sent : flush.alerts) {
      long fp = sent.alert().fingerprint();
      Alert current = group.alerts.get(fp);
      if (sent.resolved()
          && current != null
          && current.updatedAt().equals(sent.alert().updatedAt())) {
        group.alerts.remove(fp);
      }
    }
  }

  /**
   * Exponential, as Alertmanager's (without its jitter): 0.5 s, then 1.5 times longer each time, at
   * most 60 s.
   */
  static Duration backoff(int attempt) {
    double millis = FIRST_BACKOFF.toMillis() * Math.pow(1.5, attempt - 1);
    return millis >= MAX_BACKOFF.toMillis() ? MAX_BACKOFF : Duration.ofMillis((long) millis);
  }

  /** {@code Route.Key()}: the matchers of each route from the root down, joined by '/'. */
  private void keys(Route route, String parentKey) {
    String key = (parentKey.isEmpty() ? "" : parentKey + "/") + route.matchersText();
    routeKeys.put(route, key);
    route.routes().forEach(child -> keys(child, key));
  }

  /** The groups' keys with their alerts' fingerprints, for tests and status pages. */
  public synchronized Map<String, List<String>> groups() {
    Map<String, List<String>> view = new TreeMap<>();
    groups
        .values()
        .forEach(
            byLabels ->
                byLabels
                    .values()
                    .forEach(
                        group ->
                            view.put(
                                group.groupKey,
                                group.alerts.keySet().stream()
                                    .map(LabelSets::hex)
                                    .sorted()
                                    .toList())));
    return view;
  }
}
