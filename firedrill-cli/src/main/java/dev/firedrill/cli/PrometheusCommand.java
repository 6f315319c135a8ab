package dev.firedrill.cli;

import dev.firedrill.embedded.EmbeddedPrometheus;
import dev.firedrill.embedded.StandardComponents;
import dev.firedrill.embedded.config.ConfigException;
import dev.firedrill.embedded.config.ConfigLoader;
import dev.firedrill.format.IoReasons;
import dev.firedrill.promconfig.Config;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.eval.Engine;
import dev.firedrill.time.Clock;
import dev.firedrill.time.Durations;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
    name = "prometheus",
    description =
        "Run the embedded Prometheus: scrape the config's targets, evaluate its"
            + " rule files, send alerts to its Alertmanagers and answer Prometheus's HTTP API (/api/v1/query, ...), with"
            + " nothing but Java. Runs until SIGINT or SIGTERM.")
final class PrometheusCommand implements Callable<Integer> {

  private static final String NAME = "prometheus";
  private static final Duration MAX_RETENTION = Duration.ofDays(365);
  private static final Duration MAX_RESEND_DELAY = Duration.ofDays(1);

  @Option(
      names = "--config",
      required = true,
      paramLabel = "FILE",
      description =
          "A prometheus.yml: global intervals, static scrape_configs, rule_files, alerting.alertmanagers.")
  Path config;

  @Option(
      names = "--listen",
      defaultValue = "127.0.0.1:9090",
      paramLabel = "HOST:PORT",
      description = "Where the HTTP API listens (default: ${DEFAULT-VALUE}).")
  String listen;

  @Option(
      names = "--compat",
      defaultValue = "3",
      paramLabel = "2|3",
      description = CompatOption.DESCRIPTION + " (default: ${DEFAULT-VALUE}).")
  int compat;

  @Option(
      names = "--retention",
      defaultValue = "2h",
      paramLabel = "DURATION",
      description = "How long samples are kept in memory (default: ${DEFAULT-VALUE}).")
  String retention;

  @Option(
      names = "--resend-delay",
      defaultValue = "1m",
      paramLabel = "DURATION",
      description =
          "How long a firing alert waits before it is sent to the Alertmanagers again, as Prometheus's "
              + "--rules.alert.resend-delay (default: ${DEFAULT-VALUE}).")
  String resendDelay;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  /** The scraper and rule manager for a resend delay, ingesting as a mode's Prometheus. */
  private final BiFunction<Duration, Compat, EmbeddedPrometheus.Components> components;

  PrometheusCommand() {
    this(StandardComponents::new);
  }

  PrometheusCommand(BiFunction<Duration, Compat, EmbeddedPrometheus.Components> components) {
    this.components = components;
  }

  @Override
  public Integer call() {
    EmbeddedPrometheus.Settings settings = settings();
    Duration resend = LabOptions.positive(NAME, "--resend-delay", resendDelay, MAX_RESEND_DELAY);
    PrintWriter out = spec.commandLine().getOut();
    EmbeddedPrometheus prometheus;
    try {
      prometheus =
          EmbeddedPrometheus.start(
              settings, components.apply(resend, settings.engine().compat()), Clock.system());
    } catch (IOException e) {
      throw new UserError(
          "firedrill " + NAME + ": cannot listen on " + listen + ": " + e.getMessage(),
          ExitCode.INVALID,
          e);
    } catch (IllegalArgumentException e) {
      throw LabOptions.refused(NAME, e);
    }
    try (prometheus;
        StopOnSignals stop = StopOnSignals.install(out, "the embedded Prometheus")) {
      Config loaded = settings.config();
      out.println(
          NAME
              + ": "
              + prometheus.url()
              + " (config "
              + config
              + ": "
              + loaded.scrapeConfigs().size()
              + " scrape job(s), "
              + loaded.ruleFiles().size()
              + " rule file pattern(s); retention "
              + Durations.format(settings.retention())
              + "; PromQL of Prometheus "
              + settings.engine().compat().major()
              + ")");
      out.println("running until SIGINT or SIGTERM");
      out.flush();
      while (!stop.await(Duration.ofDays(1))) {
        if (Thread.currentThread().isInterrupted()) {
          break;
        }
      }
      out.println(NAME + ": stopped (" + stop.reason().orElse("interrupted") + ")");
      out.flush();
    }
    return ExitCode.HELD;
  }

  private EmbeddedPrometheus.Settings settings() {
    Config loaded;
    String yaml;
    try {
      loaded = ConfigLoader.load(config);
      yaml = Files.readString(config, StandardCharsets.UTF_8);
    } catch (ConfigException e) {
      throw new UserError(e.getMessage(), ExitCode.INVALID, e);
    } catch (IOException e) {
      throw new UserError(config + ": cannot read: " + IoReasons.of(e), ExitCode.INVALID, e);
    }
    return new EmbeddedPrometheus.Settings(
        loaded,
        yaml,
        LabOptions.positive(NAME, "--retention", retention, MAX_RETENTION),
        LabOptions.address(NAME, "--listen", listen),
        Engine.Options.evaluatingEvery(loaded.global().evaluationInterval())
            .withCompat(compatMode()));
  }

  private Compat compatMode() {
    return CompatOption.parse(NAME, compat);
  }
}
