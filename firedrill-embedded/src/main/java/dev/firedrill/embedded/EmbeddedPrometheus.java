package dev.firedrill.embedded;

import dev.firedrill.embedded.api.ApiServer;
import dev.firedrill.embedded.api.BuildInfo;
import dev.firedrill.embedded.api.QueryEngine;
import dev.firedrill.embedded.drive.RealTimeDriver;
import dev.firedrill.embedded.drive.Recurring;
import dev.firedrill.embedded.drive.Scheduled;
import dev.firedrill.embedded.drive.VirtualDriver;
import dev.firedrill.embedded.rules.snapshot.GroupSnapshot;
import dev.firedrill.embedded.storage.MemoryStorage;
import dev.firedrill.embedded.storage.Storage;
import dev.firedrill.promconfig.Config;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.eval.Engine;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A Prometheus in this JVM: config, storage, scraping, rule groups (with their notifier) and the
 * HTTP API, all reading one clock. It runs in real time ({@link #start}) or as work on a virtual
 * clock's driver ({@link #simulate}), where a ten-minute drill takes milliseconds.
 */
public final class EmbeddedPrometheus implements AutoCloseable {

  /** Prometheus's default {@code --storage.tsdb.retention.time} for this use: two hours. */
  public static final Duration DEFAULT_RETENTION = Duration.ofHours(2);

  /** How often samples past the retention are dropped. */
  static final Duration TRUNCATION_INTERVAL = Duration.ofMinutes(1);

  /**
   * How to run it. {@code configYaml} is the config file's text, shown by {@code
   * /api/v1/status/config}; {@code listen} is the API's address (port 0 for any free port).
   */
  public record Settings(
      Config config,
      String configYaml,
      Duration retention,
      InetSocketAddress listen,
      Engine.Options engine) {
    public Settings {
      Objects.requireNonNull(config, "config");
      Objects.requireNonNull(configYaml, "configYaml");
      Objects.requireNonNull(listen, "listen");
      Objects.requireNonNull(engine, "engine");
      if (retention.isNegative() || retention.isZero()) {
        throw new IllegalArgumentException(
            "retention " + retention + " is not positive (expected a duration such as 2h)");
      }
    }

    /** 127.0.0.1 on {@code port}, the default retention and Prometheus's engine defaults. */
    public static Settings of(Config config, String configYaml, int port) {
      return new Settings(
          config,
          configYaml,
          DEFAULT_RETENTION,
          new InetSocketAddress("127.0.0.1", port),
          Engine.Options.evaluatingEvery(config.global().evaluationInterval()));
    }

    /** These settings, the engine answering as {@code compat}'s Prometheus. */
    public Settings withCompat(Compat compat) {
      return new Settings(config, configYaml, retention, listen, engine.withCompat(compat));
    }
  }

  /**
   * The rule groups as the rule manager runs them, their state, and the notifier that sends their
   * alerts (closed after the groups stop).
   */
  public record Rules(
      List<? extends Recurring> groups,
      Supplier<List<GroupSnapshot>> status,
      AutoCloseable notifier) {
    public Rules {
      groups = List.copyOf(groups);
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(notifier, "notifier");
    }
  }

  /**
   * What turns a config into running parts: the scraper and the rule manager (with its notifier). A
   * config they cannot run is an {@link IllegalArgumentException} with one line naming the file.
   */
  public interface Components {

    /** One piece of scheduled work per target, appending to {@code storage}. */
    List<? extends Recurring> scrapes(Config config, Storage storage, Clock clock);

    /**
     * The rule groups of the config's rule files, evaluated by {@code engine} into {@code storage};
     * {@code externalUrl} is the API's URL, for templates and alerts' generator URLs.
     */
    Rules rules(Config config, Storage storage, Engine engine, Clock clock, URI externalUrl);
  }

  private final Storage storage;
  private final ApiServer api;

  /**
   * What runs the scrapes and evaluations: a real-time driver, or the work's place on a virtual
   * one.
   */
  private final AutoCloseable work;

  private final AutoCloseable notifier;

  private EmbeddedPrometheus(Assembly assembly, AutoCloseable work) {
    this.storage = assembly.storage();
    this.api = assembly.api();
    this.notifier = assembly.notifier();
    this.work = work;
  }

  /** Starts scraping, evaluating and serving the API in real time on {@code clock}. */
  public static EmbeddedPrometheus start(Settings settings, Components components, Clock clock)
      throws IOException {
    Assembly assembly = Assembly.of(settings, components, clock);
    return new EmbeddedPrometheus(assembly, RealTimeDriver.start(clock, assembly.work()));
  }

  /**
   * Assembles it on the driver's clock and serves the API (its default query time is the virtual
   * now); nothing is scraped or evaluated until the clock moves, which runs every scrape,
   * evaluation and truncation due on the way, in time order with whatever else is on the driver.
   */
  public static EmbeddedPrometheus simulate(
      Settings settings, Components components, VirtualDriver driver) throws IOException {
    Assembly assembly = Assembly.of(settings, components, driver.clock());
    return new EmbeddedPrometheus(assembly, driver.add(assembly.work()));
  }

  /** The API's base URL, such as {@code http://127.0.0.1:9090}. */
  public URI url() {
    return api.url();
  }

  public Storage storage() {
    return storage;
  }

  /**
   * Stops scraping and evaluating (in real time interrupting work under way, waiting for it at most
   * seconds; on a virtual clock taking the work off its driver), then the notifier and the API.
   */
  @Override
  public void close() {
    try (api) {
      closeEach(work, notifier);
    }
  }

  private static void closeEach(AutoCloseable... parts) {
    IllegalStateException failed = null;
    for (AutoCloseable part : parts) {
      try {
        part.close();
      } catch (Exception e) {
        if (failed == null) {
          failed =
              new IllegalStateException(
                  "cannot stop the embedded Prometheus: " + e.getMessage(), e);
        }
      }
    }
    if (failed != null) {
      throw failed;
    }
  }

  /**
   * The parts built from the settings, work in the order it runs when instants coincide. The API
   * listens first: its URL is the rules' external URL, and its rule state is read once rules exist.
   */
  private record Assembly(
      Storage storage, ApiServer api, List<Recurring> work, AutoCloseable notifier) {

    static Assembly of(Settings settings, Components components, Clock clock) throws IOException {
      Storage storage = new MemoryStorage();
      AtomicReference<Rules> rules =
          new AtomicReference<>(new Rules(List.of(), List::of, () -> {}));
      ApiServer api =
          ApiServer.start(
              settings.listen(),
              new ApiServer.Parts(
                  QueryEngine.over(storage, settings.engine()),
                  storage,
                  () -> rules.get().status().get(),
                  settings::configYaml,
                  BuildInfo.firedrill(),
                  clock));
      List<Recurring> work = new ArrayList<>();
      try {
        rules.set(
            components.rules(
                settings.config(),
                storage,
                new Engine(storage, settings.engine()),
                clock,
                api.url()));
        // Scrapes before rule groups: a group evaluating at the instant of a scrape sees its
        // samples.
        work.addAll(components.scrapes(settings.config(), storage, clock));
      } catch (RuntimeException e) {
        try (api) {
          rules.get().notifier().close();
        } catch (Exception suppressed) {
          e.addSuppressed(suppressed);
        }
        throw e;
      }
      work.addAll(rules.get().groups());
      Duration retention = settings.retention();
      work.add(
          new Scheduled(
              "retention",
              TRUNCATION_INTERVAL,
              Duration.ZERO,
              at -> storage.truncateBefore(at.minus(retention).toEpochMilli())));
      return new Assembly(storage, api, work, rules.get().notifier());
    }
  }
}
