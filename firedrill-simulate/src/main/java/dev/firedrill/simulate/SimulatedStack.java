package dev.firedrill.simulate;

import dev.firedrill.alerting.receiver.ReceiverConfig;
import dev.firedrill.alerting.receiver.WebhookReceiver;
import dev.firedrill.embedded.EmbeddedPrometheus;
import dev.firedrill.embedded.RuleEvaluations;
import dev.firedrill.embedded.alertmanager.VirtualAlertmanager;
import dev.firedrill.embedded.alertmanager.alert.Alert;
import dev.firedrill.embedded.alertmanager.api.ApiServer;
import dev.firedrill.embedded.alertmanager.config.AlertmanagerConfig;
import dev.firedrill.embedded.alertmanager.webhook.HttpSender;
import dev.firedrill.embedded.alertmanager.webhook.SendResult;
import dev.firedrill.embedded.alertmanager.webhook.Sender;
import dev.firedrill.embedded.drive.Recurring;
import dev.firedrill.embedded.drive.VirtualDriver;
import dev.firedrill.embedded.notify.AlertSink;
import dev.firedrill.embedded.notify.OutgoingAlert;
import dev.firedrill.embedded.rules.EngineRuleQuery;
import dev.firedrill.embedded.rules.RuleFileLoader;
import dev.firedrill.embedded.rules.RuleGroupSpec;
import dev.firedrill.embedded.rules.RuleManager;
import dev.firedrill.embedded.scrape.ScrapeTarget;
import dev.firedrill.embedded.storage.Storage;
import dev.firedrill.promconfig.Config;
import dev.firedrill.promconfig.ScrapeConfig;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.eval.Engine;
import dev.firedrill.time.Clock;
import dev.firedrill.time.VirtualClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The lab's observability stack on one virtual clock: the embedded Prometheus scraping the model
 * and evaluating the real rule files, the embedded Alertmanager with the real route tree, and a
 * webhook receiver on loopback that every webhook reaches. Both servers are work on one driver of
 * that clock, so {@link #clock()} is the drill's clock: sleeping on it runs every scrape,
 * evaluation, notification and flush due meanwhile, in time order.
 */
public final class SimulatedStack implements AutoCloseable {

  /** As the lab runs Prometheus ({@code --rules.alert.resend-delay=1s}). */
  static final Duration RESEND_DELAY = Duration.ofSeconds(1);

  /** The externalURL webhook payloads carry: there is no Alertmanager UI to link to. */
  static final String SIMULATED_ALERTMANAGER = "http://127.0.0.1/simulated-alertmanager";

  private final VirtualClock clock;
  private final LabMetrics metrics;
  private final EmbeddedPrometheus prometheus;
  private final VirtualAlertmanager alertmanager;
  private final ApiServer alertmanagerApi;
  private final WebhookReceiver receiver;

  private SimulatedStack(
      VirtualClock clock,
      LabMetrics metrics,
      EmbeddedPrometheus prometheus,
      VirtualAlertmanager alertmanager,
      ApiServer alertmanagerApi,
      WebhookReceiver receiver) {
    this.clock = clock;
    this.metrics = metrics;
    this.prometheus = prometheus;
    this.alertmanager = alertmanager;
    this.alertmanagerApi = alertmanagerApi;
    this.receiver = receiver;
  }

  /**
   * Assembles the stack at {@code start}, its Prometheus answering, scraping and scheduling its
   * groups as {@code compat}'s, on the phases of {@code live} where it has them; nothing is scraped
   * until the clock moves.
   *
   * @param events a line for each webhook Alertmanager could not deliver
   */
  public static SimulatedStack start(
      Config prometheusConfig,
      String prometheusYaml,
      AlertmanagerConfig routes,
      LabModel model,
      Instant start,
      Compat compat,
      LivePhases live,
      Consumer<String> events) {
    VirtualClock clock = new VirtualClock(start);
    VirtualDriver driver = VirtualDriver.on(clock);
    LabMetrics metrics = new LabMetrics(model, start);
    ToReceiver sender = new ToReceiver();
    // Alertmanager's work goes first: at an instant both are due it flushes what it holds before
    // that
    // instant's evaluations send more, as alerts reach a real one only after the evaluation that
    // sent them.
    VirtualAlertmanager alertmanager =
        VirtualAlertmanager.start(routes, driver, sender, SIMULATED_ALERTMANAGER, events);
    List<AutoCloseable> opened = new ArrayList<>(List.of(alertmanager));
    try {
      // Stamped on the clock, which stands at the flush that sends while the webhook arrives.
      WebhookReceiver receiver =
          WebhookReceiver.start(ReceiverConfig.defaults().withListen("127.0.0.1:0"), clock);
      opened.add(receiver);
      sender.to(receiver.url());
      ApiServer api = ApiServer.start(alertmanager, new InetSocketAddress("127.0.0.1", 0));
      opened.add(api);
      EmbeddedPrometheus prometheus =
          EmbeddedPrometheus.simulate(
              EmbeddedPrometheus.Settings.of(prometheusConfig, prometheusYaml, 0)
                  .withCompat(compat),
              new Components(
                  metrics, alerts -> alertmanager.put(received(alerts, clock.now())), compat, live),
              driver);
      return new SimulatedStack(clock, metrics, prometheus, alertmanager, api, receiver);
    } catch (IOException | RuntimeException e) {
      opened.forEach(SimulatedStack::closeQuietly);
      if (e instanceof IOException io) {
        throw new UncheckedIOException(
            "cannot serve the simulated stack's APIs on loopback: " + io.getMessage(), io);
      }
      throw (RuntimeException) e;
    }
  }

  /** An evaluation's alerts as Alertmanager takes them, at the evaluation's instant. */
  private static List<Alert> received(List<OutgoingAlert> alerts, Instant at) {
    return alerts.stream()
        .map(
            a ->
                new Alert(
                    new TreeMap<>(a.labels()),
                    new TreeMap<>(a.annotations()),
                    a.startsAt(),
                    a.endsAt(),
                    a.generatorUrl(),
                    at,
                    false))
        .toList();
  }

  /** The drill's clock: the virtual now; sleeping on it runs the whole stack. */
  public Clock clock() {
    return clock;
  }

  public LabMetrics metrics() {
    return metrics;
  }

  /** The embedded Prometheus's API; its queries default to the virtual now. */
  public URI prometheusUrl() {
    return prometheus.url();
  }

  public URI alertmanagerUrl() {
    return alertmanagerApi.url();
  }

  /** Where every webhook of the route tree arrives, whatever host its URL names. */
  public WebhookReceiver receiver() {
    return receiver;
  }

  @Override
  public void close() {
    try {
      prometheus.close();
    } finally {
      alertmanager.close();
      closeQuietly(alertmanagerApi);
      receiver.close();
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      // Closing on a failed start: the first failure is the one worth reporting.
    }
  }

  /**
   * Posts each webhook to the receiver, keeping the path its URL names (the path names the team).
   */
  private static final class ToReceiver implements Sender {
    private final HttpSender http = new HttpSender();
    private volatile URI receiver;

    void to(URI url) {
      receiver = url;
    }

    @Override
    public SendResult send(URI url, byte[] json, Duration timeout) throws InterruptedException {
      try {
        URI moved =
            new URI(
                receiver.getScheme(), receiver.getAuthority(), url.getPath(), url.getQuery(), null);
        return http.send(moved, json, timeout);
      } catch (URISyntaxException e) {
        return new SendResult.Failed(
            "webhook URL " + url + " cannot be moved to the receiver: " + e.getMessage());
      }
    }
  }

  /** The embedded Prometheus's parts over the model: simulated scrapes and the real rule files. */
  private record Components(LabMetrics metrics, AlertSink sink, Compat compat, LivePhases live)
      implements EmbeddedPrometheus.Components {

    @Override
    public List<? extends Recurring> scrapes(Config config, Storage storage, Clock clock) {
      List<Recurring> work = new ArrayList<>();
      for (ScrapeConfig job : config.scrapeConfigs()) {
        ScrapeTarget.of(job)
            .forEach(
                target ->
                    work.add(
                        new SimulatedScrape(
                            target,
                            metrics,
                            storage,
                            live.lastScrapeMs(job.jobName()),
                            compat == Compat.PROMETHEUS_3)));
      }
      return work;
    }

    @Override
    public EmbeddedPrometheus.Rules rules(
        Config config, Storage storage, Engine engine, Clock clock, URI externalUrl) {
      RuleManager.Options options =
          new RuleManager.Options(
              config.global().evaluationInterval().toMillis(),
              RESEND_DELAY.toMillis(),
              config.global().externalLabels().toMap(),
              externalUrl.toString(),
              compat);
      RuleManager manager =
          new RuleManager(
              RuleFileLoader.readingAs(engine).load(RuleEvaluations.ruleFiles(config)).stream()
                  .map(this::onLivePath)
                  .toList(),
              options,
              new EngineRuleQuery(engine),
              storage,
              sink,
              clock::nanoTime);
      manager.evaluateDue(
          clock
              .now()
              .toEpochMilli()); // every group scheduled from now, as a Prometheus starting then
      RuleEvaluations work = new RuleEvaluations(manager);
      return new EmbeddedPrometheus.Rules(List.of(work), work::groups, () -> {});
    }

    /** The group on the path its live twin has, so that it evaluates at the same offset. */
    private RuleGroupSpec onLivePath(RuleGroupSpec spec) {
      return live.ruleFile(spec.file(), spec.name())
          .map(
              file ->
                  new RuleGroupSpec(
                      file, spec.name(), spec.intervalMs(), spec.limit(), spec.rules()))
          .orElse(spec);
    }
  }
}
