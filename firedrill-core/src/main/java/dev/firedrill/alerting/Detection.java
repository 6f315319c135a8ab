package dev.firedrill.alerting;

import dev.firedrill.experiment.AlertExpectation;
import dev.firedrill.experiment.AlertExpectation.Expect;
import dev.firedrill.time.Durations;
import dev.firedrill.yaml.NearestName;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Watches the expected alerts of one drill: before injection (none may already be active), every
 * interval while the faults are on, and after the rollback until each expectation's window has
 * passed. Called from the drill's thread only; the stack's reads may fail, and a failure is kept as
 * the reason a row stayed unknown, never thrown.
 */
public final class Detection {

  /** Why the drill must not start: an input error (no such rule) or an alert already active. */
  public record PreflightProblem(boolean inputError, String reason) {}

  /** As the experiment names them until preflight, then by their rules' names (a UID's title). */
  private List<AlertExpectation> expectations;

  private final AlertStack stack;
  private final boolean webhooks;
  private final boolean alertmanager;
  private final List<Tracked> tracked = new ArrayList<>();
  private RuleBook rules;

  /** Reads of the alerts (Prometheus's, or Grafana's) while watching: whether an alert fired. */
  private final Reads alertReads = new Reads("the alerts");

  /** Reads of Alertmanager's alerts while watching: where an alert was routed, its startsAt. */
  private final Reads routedReads = new Reads("Alertmanager");

  private List<Truncation> truncations = List.of();

  /**
   * {@code webhooks}: firedrill's receiver is routed to, so a notification is awaited; {@code
   * alertmanager}: Alertmanager's API can be read for startsAt and receivers.
   */
  public Detection(
      List<AlertExpectation> expectations,
      AlertStack stack,
      boolean webhooks,
      boolean alertmanager) {
    this.expectations = List.copyOf(expectations);
    this.stack = stack;
    this.webhooks = webhooks;
    this.alertmanager = alertmanager;
    this.expectations.forEach(e -> tracked.add(new Tracked(e)));
  }

  public boolean watching() {
    return !expectations.isEmpty();
  }

  /**
   * Every expected alert must have a rule, and none that should fire may already be pending or
   * firing.
   */
  public Optional<PreflightProblem> preflight() {
    try {
      rules = stack.rules();
      List<String> undefined =
          expectations.stream()
              .map(AlertExpectation::alert)
              .distinct()
              .filter(name -> rules.alert(name).isEmpty())
              .toList();
      if (!undefined.isEmpty() && rules.noRulesCause().isPresent()) {
        return Optional.of(
            new PreflightProblem(
                true,
                "hypothesis.alerts names "
                    + String.join(", ", undefined)
                    + ", but "
                    + rules.noRulesCause().get()));
      }
      if (!undefined.isEmpty()) {
        return Optional.of(
            new PreflightProblem(
                true,
                "hypothesis.alerts names "
                    + String.join(", ", undefined)
                    + ", which no alerting rule of Prometheus defines ("
                    + suggestion(undefined)
                    + ")"));
      }
      byRuleNames();
      List<PromAlert> active = stack.alerts().stream().filter(PromAlert::active).toList();
      for (AlertExpectation expectation : expectations) {
        Optional<PromAlert> already =
            active.stream().filter(a -> expectation.matches(a.labels())).findFirst();
        if (already.isPresent() && expectation.expect() == Expect.FIRING) {
          return Optional.of(
              new PreflightProblem(
                  false,
                  expectation.describe()
                      + " is already "
                      + already.get().state()
                      + ", so its time to detect would mean nothing; nothing was injected"));
        }
      }
      return Optional.empty();
    } catch (AlertStackException e) {
      return Optional.of(
          new PreflightProblem(
              false, "cannot read the alerts before injection: " + e.getMessage()));
    }
  }

  /** The nearest rule name for one unknown name; every rule name for several. */
  private String suggestion(List<String> undefined) {
    List<String> names =
        rules.alerting().stream().map(RuleBook.AlertRule::name).distinct().toList();
    return undefined.size() == 1
        ? NearestName.suggest(undefined.get(0), names, "expected one of: ")
        : "expected one of: " + String.join(", ", names);
  }

  /**
   * An expectation that names a Grafana rule by its UID watches the rule's title: the {@code
   * alertname} of Grafana's instances, routed alerts and notifications.
   */
  private void byRuleNames() {
    for (Tracked t : tracked) {
      rules
          .alert(t.expectation.alert())
          .filter(rule -> !rule.name().equals(t.expectation.alert()))
          .ifPresent(rule -> t.expectation = t.expectation.named(rule.name()));
    }
    expectations = tracked.stream().map(t -> t.expectation).toList();
  }

  /** Reads the stack once and tells {@code news} what changed since the last read. */
  public void poll(AlertNews news) {
    Optional<List<PromAlert>> promAlerts = Optional.empty();
    List<RoutedAlert> routed = List.of();
    try {
      promAlerts = Optional.of(stack.alerts());
      alertReads.succeeded();
    } catch (AlertStackException e) {
      alertReads.failed(e.getMessage());
    }
    // Read whatever the alerts did: an Alertmanager that answers still routes and dates the alert.
    if (alertmanager) {
      try {
        routed = stack.routed();
        routedReads.succeeded();
      } catch (AlertStackException e) {
        routedReads.failed(e.getMessage());
      }
    }
    List<Delivery> deliveries = stack.deliveries();
    truncations = stack.truncations();
    for (Tracked t : tracked) {
      t.update(promAlerts, routed, deliveries, news);
    }
  }

  /** When watching may stop: every expectation's window after injection has passed. */
  public Instant deadline(Instant injectedAt) {
    return injectedAt.plus(
        expectations.stream()
            .map(AlertExpectation::within)
            .max(Comparator.naturalOrder())
            .orElse(Duration.ZERO));
  }

  /**
   * Nothing left to learn: each firing expectation is fully measured, each silent one's window has
   * passed.
   */
  public boolean settled(Instant injectedAt, Instant now) {
    return tracked.stream().allMatch(t -> t.settled(injectedAt, now));
  }

  /** The rows, with floors for a fault that fails every request. */
  public List<DetectionRow> rows(Instant injectedAt) {
    return rows(injectedAt, OptionalDouble.empty());
  }

  /**
   * The rows, with floors for the error ratio measured while the faults were on ({@link
   * Floors#of(RuleBook.AlertRule, RuleBook, OptionalDouble)}).
   */
  public List<DetectionRow> rows(Instant injectedAt, OptionalDouble measuredErrorRatio) {
    return tracked.stream().map(t -> t.row(injectedAt, measuredErrorRatio)).toList();
  }

  /**
   * The longest range window {@code query} reads, through the recording rules once {@link
   * #preflight()} has read them: how long a fault must be on before a reading of it stops counting
   * the time before the fault.
   */
  public Optional<Duration> window(String query) {
    return Floors.window(query, rules == null ? Map.of() : rules.recording());
  }

  /**
   * The intervals the floors use and where they came from, once {@link #preflight()} has read the
   * rules.
   */
  public Optional<String> intervals() {
    return Optional.ofNullable(rules).map(RuleBook::intervalsText);
  }

  /** How many reads of one source failed while watching, and why the last one did. */
  private static final class Reads {
    private final String source;
    private int total;
    private int failed;
    private String lastFailure = "";

    Reads(String source) {
      this.source = source;
    }

    void succeeded() {
      total++;
    }

    void failed(String why) {
      total++;
      failed++;
      lastFailure = why;
    }

    boolean anyFailed() {
      return failed > 0;
    }

    /** {@code 3 of 5 reads of Alertmanager failed (the last: ...)}. */
    String text() {
      return failed
          + " of "
          + total
          + (total == 1 ? " read of " : " reads of ")
          + source
          + " failed (the last: "
          + lastFailure
          + ")";
    }
  }

  /** What was seen of one expected alert, first occurrence of each kind. */
  private final class Tracked {
    private AlertExpectation expectation;
    private Optional<PromAlert> pending = Optional.empty();
    private Optional<PromAlert> firing = Optional.empty();
    private Optional<RoutedAlert> routedAlert = Optional.empty();
    private Optional<Delivery> delivery = Optional.empty();

    /** Where the alert stands now; empty until it is first seen. */
    private Optional<AlertState> current = Optional.empty();

    Tracked(AlertExpectation expectation) {
      this.expectation = expectation;
    }

    /**
     * {@code promAlerts} is empty when Prometheus could not be read: then nothing is known to have
     * resolved.
     */
    void update(
        Optional<List<PromAlert>> promAlerts,
        List<RoutedAlert> routed,
        List<Delivery> deliveries,
        AlertNews news) {
      String name = expectation.describe();
      promAlerts.ifPresent(alerts -> updateState(alerts, name, news));
      if (routedAlert.isEmpty()) {
        routed.stream()
            .filter(a -> expectation.matches(a.labels()))
            .findFirst()
            .ifPresent(
                a -> {
                  routedAlert = Optional.of(a);
                  news.routed(name, a.startsAt(), a.receivers());
                });
      }
      if (delivery.isEmpty()) {
        deliveries.stream()
            .filter(Delivery::firing)
            .filter(d -> expectation.matches(d.labels()))
            .min(Comparator.comparing(Delivery::receivedAt))
            .ifPresent(
                d -> {
                  delivery = Optional.of(d);
                  news.notified(name, d.receiver(), d.receivedAt(), d.startsAt());
                });
      }
    }

    /** The first pending and firing are kept for the row; every change of state is news. */
    private void updateState(List<PromAlert> alerts, String name, AlertNews news) {
      List<PromAlert> matching =
          alerts.stream()
              .filter(PromAlert::active)
              .filter(a -> expectation.matches(a.labels()))
              .toList();
      if (pending.isEmpty() && !matching.isEmpty()) {
        pending = Optional.of(matching.get(0));
      }
      if (firing.isEmpty()) {
        matching.stream()
            .filter(PromAlert::firing)
            .findFirst()
            .ifPresent(a -> firing = Optional.of(a));
      }
      // Several series may match one expectation: the alert stands where the furthest of them does.
      Optional<PromAlert> furthest =
          matching.stream()
              .filter(PromAlert::firing)
              .findFirst()
              .or(() -> matching.stream().findFirst());
      Optional<AlertState> next =
          furthest
              .map(AlertState::of)
              .or(
                  () ->
                      current.filter(s -> s != AlertState.RESOLVED).map(s -> AlertState.RESOLVED));
      if (next.isPresent() && !next.equals(current)) {
        news.state(name, next.get(), current, furthest.flatMap(PromAlert::activeAt));
        current = next;
      }
    }

    boolean settled(Instant injectedAt, Instant now) {
      if (!now.isBefore(injectedAt.plus(expectation.within()))) {
        return true;
      }
      if (expectation.expect() == Expect.SILENT) {
        return false;
      }
      boolean detected = startsAt().isPresent();
      boolean routedKnown = expectation.receiver().isEmpty() || receiverSeen().isPresent();
      return detected && routedKnown && (!webhooks || delivery.isPresent());
    }

    /**
     * Alertmanager and the webhook carry the evaluation that fired the alert; Prometheus only its
     * activeAt.
     */
    private Optional<Instant> startsAt() {
      return delivery.map(Delivery::startsAt).or(() -> routedAlert.map(RoutedAlert::startsAt));
    }

    private Optional<Instant> estimatedStart() {
      Duration forDuration =
          rules == null
              ? Duration.ZERO
              : rules
                  .alert(expectation.alert())
                  .map(RuleBook.AlertRule::forDuration)
                  .orElse(Duration.ZERO);
      return firing.flatMap(a -> a.firingSince(forDuration));
    }

    private Optional<List<String>> receiverSeen() {
      return delivery
          .map(d -> List.of(d.receiver()))
          .or(() -> routedAlert.map(RoutedAlert::receivers));
    }

    private Map<String, String> annotations() {
      return delivery
          .map(Delivery::annotations)
          .or(() -> routedAlert.map(RoutedAlert::annotations))
          .or(() -> firing.map(PromAlert::annotations))
          .orElse(Map.of());
    }

    DetectionRow row(Instant injectedAt, OptionalDouble measuredErrorRatio) {
      Optional<Floor> floor =
          rules == null
              ? Optional.empty()
              : rules
                  .alert(expectation.alert())
                  .map(rule -> Floors.of(rule, rules, measuredErrorRatio));
      Optional<Instant> starts = startsAt();
      String source =
          delivery.isPresent()
              ? "webhook startsAt"
              : routedAlert.isPresent()
                  ? "Alertmanager startsAt"
                  : firing.filter(PromAlert::grafana).isPresent()
                      ? "Grafana activeAt"
                      : "Prometheus activeAt + for";
      Optional<Instant> detectedAt = starts.or(this::estimatedStart);
      boolean fired = detectedAt.isPresent() || firing.isPresent();
      Optional<Duration> detect = detectedAt.map(at -> Duration.between(injectedAt, at));
      Optional<Duration> notify = delivery.map(d -> Duration.between(d.startsAt(), d.receivedAt()));
      DetectionRow.Check receiver = receiverCheck();
      List<String> receivers = receiverSeen().orElse(List.of());
      DetectionRow.Check runbook = linkCheck("runbook_url", expectation.runbookUrl());
      DetectionRow.Check dashboard = linkCheck("dashboard", expectation.dashboard());
      if (expectation.expect() == Expect.SILENT) {
        // Not seen firing while some reads failed: it may have fired unseen.
        boolean unknown = !fired && alertReads.anyFailed();
        boolean held = !fired && !unknown;
        String within = Durations.format(expectation.within());
        return new DetectionRow(
            expectation,
            fired,
            detect,
            source,
            floor,
            notify,
            receiver,
            receivers,
            runbook,
            dashboard,
            held,
            unknown
                ? "unknown: "
                    + alertReads.text()
                    + ", so whether it stayed silent for "
                    + within
                    + " after injection is not known"
                : held
                    ? "stayed silent for " + within + " after injection"
                    : "fired "
                        + detect
                            .map(d -> Durations.seconds(d) + " after injection")
                            .orElse("during the window")
                        + " though it must stay silent",
            List.of(),
            unknown);
      }
      List<String> failures = new ArrayList<>();
      // What could not be read: not a failure of the alert, but no pass either.
      List<String> unknowns = new ArrayList<>();
      if (!fired && alertReads.anyFailed()) {
        unknowns.add(
            "unknown: "
                + alertReads.text()
                + ", so whether it fired within "
                + Durations.format(expectation.within())
                + " is not known"
                + floor.map(f -> "; its floor is " + f.text()).orElse(""));
      } else if (!fired) {
        failures.add(
            "missed: did not fire within "
                + Durations.format(expectation.within())
                + floor.map(f -> "; its floor is " + f.text()).orElse("")
                + (routedReads.anyFailed() ? "; " + routedReads.text() : ""));
      } else if (detect.isPresent() && detect.get().compareTo(expectation.within()) > 0) {
        failures.add(
            "fired "
                + Durations.seconds(detect.get())
                + " after injection, later than within "
                + Durations.format(expectation.within())
                + floor.map(f -> "; its floor is " + f.text()).orElse(""));
      }
      if (receiver.wrong()) {
        failures.add("misrouted: " + receiver.detail());
      } else if (fired
          && expectation.receiver().isPresent()
          && receiverSeen().isEmpty()
          && routedReads.anyFailed()) {
        unknowns.add("routing unknown: " + routedReads.text());
      }
      if (runbook.wrong()) {
        failures.add("wrong runbook: " + runbook.detail());
      }
      if (dashboard.wrong()) {
        failures.add("wrong dashboard: " + dashboard.detail());
      }
      List<String> problems = new ArrayList<>(unknowns);
      problems.addAll(failures);
      String reason =
          problems.isEmpty()
              ? "fired "
                  + detect.map(d -> Durations.seconds(d) + " after injection").orElse("")
                  + " ("
                  + source
                  + ")"
                  + unnotified()
                  + (routedReads.anyFailed() && routedAlert.isEmpty()
                      ? "; " + routedReads.text()
                      : "")
              : String.join("; ", problems);
      return new DetectionRow(
          expectation,
          fired,
          detect,
          source,
          floor,
          notify,
          receiver,
          receivers,
          runbook,
          dashboard,
          problems.isEmpty(),
          reason,
          truncationWarnings(),
          failures.isEmpty() && !unknowns.isEmpty());
    }

    /**
     * Why a held row has no time to notify: a row that says held must not let a reader assume the
     * page went out.
     */
    private String unnotified() {
      if (delivery.isPresent()) {
        return "";
      }
      if (!webhooks) {
        return "; notification not checked: the experiment has no receiver section";
      }
      return "; no notification reached firedrill's receiver"
          + routedAlert
              .map(a -> " (Alertmanager routed it to " + String.join(", ", a.receivers()) + ")")
              .orElse("")
          + ", so time to notify is unknown";
    }

    /**
     * When this alert was never notified, the webhooks Alertmanager cut short (of the expected
     * receiver, or of any when none is expected), one line per receiver: the alert may be among
     * those left out.
     */
    private List<String> truncationWarnings() {
      if (!webhooks || delivery.isPresent()) {
        return List.of();
      }
      Map<String, long[]> byReceiver = new java.util.TreeMap<>();
      for (Truncation t : truncations) {
        if (expectation.receiver().map(t.receiver()::equals).orElse(true)) {
          long[] counts = byReceiver.computeIfAbsent(t.receiver(), r -> new long[2]);
          counts[0] += t.truncatedAlerts();
          counts[1]++;
        }
      }
      List<String> warnings = new ArrayList<>();
      byReceiver.forEach(
          (name, counts) ->
              warnings.add(
                  "the webhook of receiver "
                      + name
                      + " left out "
                      + counts[0]
                      + (counts[0] == 1 ? " alert" : " alerts")
                      + " from "
                      + counts[1]
                      + (counts[1] == 1 ? " notification" : " notifications")
                      + " (truncatedAlerts; max_alerts in its"
                      + " webhook_config), so a missing notification may be truncation"));
      return warnings;
    }

    private DetectionRow.Check receiverCheck() {
      if (expectation.receiver().isEmpty()) {
        return DetectionRow.Check.unchecked("no receiver expected");
      }
      String expected = expectation.receiver().get();
      return receiverSeen()
          .map(
              seen ->
                  seen.contains(expected)
                      ? new DetectionRow.Check(
                          DetectionRow.Check.Status.RIGHT, "routed to " + expected)
                      : new DetectionRow.Check(
                          DetectionRow.Check.Status.WRONG,
                          "routed to " + String.join(", ", seen) + ", expected " + expected))
          .orElse(DetectionRow.Check.unchecked("no notification or Alertmanager alert seen"));
    }

    private DetectionRow.Check linkCheck(String annotation, Optional<String> expected) {
      if (expected.isEmpty()) {
        return DetectionRow.Check.unchecked("no " + annotation + " expected");
      }
      if (firing.isEmpty() && delivery.isEmpty() && routedAlert.isEmpty()) {
        return DetectionRow.Check.unchecked("the alert did not fire");
      }
      String actual = annotations().get(annotation);
      if (!expected.get().equals(actual)) {
        return new DetectionRow.Check(
            DetectionRow.Check.Status.WRONG,
            annotation
                + " is "
                + (actual == null ? "missing" : "\"" + actual + "\"")
                + ", expected \""
                + expected.get()
                + "\"");
      }
      if (expectation.checkLinks()) {
        Optional<Integer> status = stack.linkStatus(actual);
        if (status.isEmpty() || status.get() < 200 || status.get() > 299) {
          return new DetectionRow.Check(
              DetectionRow.Check.Status.WRONG,
              annotation
                  + " "
                  + actual
                  + status.map(s -> " answers " + s).orElse(" does not answer"));
        }
      }
      return new DetectionRow.Check(DetectionRow.Check.Status.RIGHT, annotation + " as expected");
    }
  }
}
