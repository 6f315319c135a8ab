package dev.firedrill.embedded;

import dev.firedrill.embedded.drive.Recurring;
import dev.firedrill.embedded.notify.AlertSink;
import dev.firedrill.embedded.notify.Notifier;
import dev.firedrill.embedded.rules.EngineRuleQuery;
import dev.firedrill.embedded.rules.RuleFileException;
import dev.firedrill.embedded.rules.RuleFileLoader;
import dev.firedrill.embedded.rules.RuleGroupSpec;
import dev.firedrill.embedded.rules.RuleManager;
import dev.firedrill.embedded.scrape.ScrapeTarget;
import dev.firedrill.embedded.scrape.Scraper;
import dev.firedrill.embedded.storage.Storage;
import dev.firedrill.promconfig.AlertmanagerConfig;
import dev.firedrill.promconfig.Config;
import dev.firedrill.promconfig.StaticConfig;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.eval.Engine;
import dev.firedrill.time.Clock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The embedded parts from a config: the scraper's targets, the rule manager over the rule files,
 * the notifier.
 */
public final class StandardComponents implements EmbeddedPrometheus.Components {

  /** Prometheus's {@code --rules.alert.resend-delay} default. */
  public static final Duration DEFAULT_RESEND_DELAY = Duration.ofMinutes(1);

  private final Duration resendDelay;
  private final Compat compat;

  /** In the default mode, Prometheus 3's. */
  public StandardComponents(Duration resendDelay) {
    this(resendDelay, Compat.defaultMode());
  }

  /**
   * Scraping as {@code compat}'s Prometheus ingests (mode 3 normalises {@code le}, {@code
   * quantile}).
   */
  public StandardComponents(Duration resendDelay, Compat compat) {
    this.resendDelay = resendDelay;
    this.compat = compat;
  }

  @Override
  public List<Recurring> scrapes(Config config, Storage storage, Clock clock) {
    List<ScrapeTarget> targets = new ArrayList<>();
    config.scrapeConfigs().forEach(job -> targets.addAll(ScrapeTarget.of(job)));
    Scraper scraper = new Scraper(storage, clock, compat);
    scraper.sync(targets, clock.now().toEpochMilli());
    List<Recurring> work = new ArrayList<>();
    for (ScrapeTarget target : targets) {
      work.add(
          new Recurring() {
            @Override
            public String name() {
              return "scrape " + target;
            }

            @Override
            public Instant nextAtOrAfter(Instant t) {
              return Instant.ofEpochMilli(target.nextScrapeAtOrAfter(t.toEpochMilli()));
            }

            @Override
            public void run(Instant at) throws InterruptedException {
              scraper.scrapeOnce(target, at.toEpochMilli());
            }
          });
    }
    return work;
  }

  @Override
  public EmbeddedPrometheus.Rules rules(
      Config config, Storage storage, Engine engine, Clock clock, URI externalUrl) {
    List<RuleGroupSpec> specs;
    try {
      specs = RuleFileLoader.readingAs(engine).load(RuleEvaluations.ruleFiles(config));
    } catch (RuleFileException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    AlertSink sink = AlertSink.NONE;
    AutoCloseable notifier = () -> {};
    if (!config.alertmanagers().isEmpty()) {
      Notifier started = Notifier.start(notifierOptions(config));
      sink = started;
      notifier = started;
    }
    RuleManager manager =
        new RuleManager(
            specs,
            new RuleManager.Options(
                config.global().evaluationInterval().toMillis(),
                resendDelay.toMillis(),
                config.global().externalLabels().toMap(),
                externalUrl.toString(),
                compat),
            new EngineRuleQuery(engine),
            storage,
            sink,
            clock::nanoTime);
    List<Recurring> groups = specs.isEmpty() ? List.of() : List.of(new RuleEvaluations(manager));
    return new EmbeddedPrometheus.Rules(groups, manager::groups, notifier);
  }

  /**
   * Every Alertmanager of every {@code alertmanagers} entry; one timeout for all, the longest
   * written.
   */
  private static Notifier.Options notifierOptions(Config config) {
    List<URI> urls = new ArrayList<>();
    Duration timeout = Duration.ZERO;
    for (AlertmanagerConfig alertmanagers : config.alertmanagers()) {
      timeout = alertmanagers.timeout().compareTo(timeout) > 0 ? alertmanagers.timeout() : timeout;
      String prefix =
          alertmanagers.pathPrefix().endsWith("/")
              ? alertmanagers.pathPrefix().substring(0, alertmanagers.pathPrefix().length() - 1)
              : alertmanagers.pathPrefix();
      for (StaticConfig group : alertmanagers.staticConfigs()) {
        group
            .targets()
            .forEach(
                target -> urls.add(URI.create(alertmanagers.scheme() + "://" + target + prefix)));
      }
    }
    Notifier.Options defaults = Notifier.Options.defaults(urls);
    return new Notifier.Options(
        urls,
        timeout,
        defaults.queueCapacity(),
        defaults.maxBatchSize(),
        config.global().externalLabels().toMap());
  }
}
