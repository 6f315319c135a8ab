package dev.firedrill.cli;

import dev.firedrill.embedded.alertmanager.config.AlertmanagerConfig;
import dev.firedrill.embedded.config.ConfigException;
import dev.firedrill.embedded.config.ConfigLoader;
import dev.firedrill.embedded.rules.RuleFileException;
import dev.firedrill.engine.JournalFile;
import dev.firedrill.engine.JournalPaths;
import dev.firedrill.engine.StopSignal;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.Numbers;
import dev.firedrill.lab.stack.TempDirs;
import dev.firedrill.promconfig.Config;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.simulate.LabModel;
import dev.firedrill.simulate.LivePhases;
import dev.firedrill.simulate.ModelException;
import dev.firedrill.simulate.ModelFile;
import dev.firedrill.simulate.Simulator;
import dev.firedrill.time.Clock;
import dev.firedrill.time.Durations;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "simulate",
    description =
        "Predict a drill: run it on a virtual clock against a model of the lab, "
            + "the embedded Prometheus evaluating the real rule files and the embedded Alertmanager routing the alerts. "
            + "Same output as run (verdicts, detection table, budget), in seconds; touches nothing outside this process.")
final class SimulateCommand implements Callable<Integer> {

  @Parameters(paramLabel = "EXPERIMENT", description = "The experiment file (YAML or JSON).")
  Path file;

  @Option(
      names = "--journal",
      paramLabel = "PATH",
      description =
          "Where to write the journal (default: journals/<id>-simulated-<UTC time>.json).")
  Path journal;

  @Option(
      names = "--model",
      paramLabel = "MODEL_YAML",
      description =
          "The service model (rate, checkout_timeout, checkout and payments: error_ratio, latency, jitter); "
              + "default: the lab's.")
  Path model;

  @Option(
      names = "--rate",
      paramLabel = "R",
      description = "Checkouts a second (overrides the model).")
  Double rate;

  @Option(
      names = "--payments-error-ratio",
      paramLabel = "SHARE",
      description = "The share of calls payments fails by itself, 0 to 1 (overrides the model).")
  Double paymentsErrorRatio;

  @Option(
      names = "--payments-latency",
      paramLabel = "DURATION",
      description = "How long payments takes to answer, such as 10ms (overrides the model).")
  String paymentsLatency;

  @Option(
      names = "--checkout-timeout",
      paramLabel = "DURATION",
      description = "Checkout's client timeout for payments, such as 300ms (overrides the model).")
  String checkoutTimeout;

  @Option(
      names = "--prometheus-config",
      paramLabel = "PROMETHEUS_YML",
      description =
          "Scrape jobs, intervals and rule_files (default: the lab's, bundled in firedrill: a copy"
              + " of fixtures/lab/prometheus.yml and its rules).")
  Path prometheusConfig;

  @Option(
      names = "--alertmanager-config",
      paramLabel = "ALERTMANAGER_YML",
      description =
          "The route tree; every webhook reaches the drill's receiver (default: the lab's, bundled"
              + " in firedrill: a copy of fixtures/lab/alertmanager.yml).")
  Path alertmanagerConfig;

  @Option(
      names = "--compat",
      paramLabel = "2|3",
      description =
          CompatOption.DESCRIPTION
              + " (default: the major version of the drill's prometheus.url, read from its"
              + " /api/v1/status/buildinfo, else 3).")
  Integer compat;

  @Option(
      names = "--warmup",
      paramLabel = "DURATION",
      defaultValue = "2m",
      description =
          "Virtual time the model runs before the drill, so rate windows are full (default: ${DEFAULT-VALUE}).")
  String warmup;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    if (prometheusConfig != null && alertmanagerConfig != null) {
      return simulate(prometheusConfig, alertmanagerConfig);
    }
    // The bundled lab, written out for this run only: simulate works from any directory.
    Path bundled = Bundled.extractLab(TempDirs.create("firedrill-simulate-"));
    try {
      Path lab = bundled.resolve(Bundled.LAB_DIR);
      return simulate(
          prometheusConfig != null ? prometheusConfig : lab.resolve("prometheus.yml"),
          alertmanagerConfig != null ? alertmanagerConfig : lab.resolve("alertmanager.yml"));
    } finally {
      TempDirs.delete(bundled);
    }
  }

  private int simulate(Path prometheusConfig, Path alertmanagerConfig) {
    Experiment experiment = Wiring.load(file);
    LabModel labModel = model();
    Config prometheus;
    String prometheusYaml;
    AlertmanagerConfig routes;
    try {
      prometheus = ConfigLoader.load(prometheusConfig);
      prometheusYaml = Files.readString(prometheusConfig);
      routes = AlertmanagerConfig.load(alertmanagerConfig);
    } catch (ConfigException
        | IOException
        | dev.firedrill.embedded.alertmanager.config.ConfigException e) {
      throw new UserError(e.getMessage(), ExitCode.INVALID, e);
    }
    CompatOption.Choice mode =
        CompatOption.choose(
            "simulate", compat, () -> Wiring.prometheus(experiment, System.getenv()));
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    JournalFile journalFile =
        new JournalFile(journal != null ? journal : JournalPaths.simulation(experiment.id(), now));
    out.println(
        "SIMULATION of "
            + file
            + ": virtual time, model ("
            + describe(labModel)
            + "), rules of "
            + (this.prometheusConfig == null ? "the bundled lab" : prometheusConfig)
            + ", routes of "
            + (this.alertmanagerConfig == null ? "the bundled lab" : alertmanagerConfig)
            + "; nothing outside this process is changed");
    out.println("SIMULATION: " + mode.describe());
    LivePhases live = livePhases(experiment, out);
    out.flush();
    StopSignal.Flag flag = new StopSignal.Flag();
    Simulator.Outcome outcome;
    try (Signals ignored = Signals.install(flag, out)) {
      outcome =
          Simulator.run(
              new Simulator.Request(
                  experiment,
                  file.toString(),
                  labModel,
                  prometheus,
                  prometheusYaml,
                  routes,
                  duration("--warmup", warmup),
                  Simulator.startEndingBy(experiment, duration("--warmup", warmup), now),
                  Optional.of(journalFile),
                  flag,
                  mode.compat(),
                  live),
              DrillRunner.console(out),
              line -> {
                err.println("simulated alertmanager: " + line);
                err.flush();
              },
              Clock.system());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("simulation interrupted", ExitCode.NOT_RUN, e);
    } catch (RuleFileException e) {
      throw new UserError(e.getMessage(), ExitCode.INVALID, e);
    }
    out.println(
        "SIMULATION: "
            + Durations.seconds(outcome.simulated())
            + " of drill predicted in "
            + Durations.seconds(outcome.realTime())
            + " of real time");
    out.println("journal: " + journalFile.path());
    out.flush();
    return ExitCode.of(outcome.result());
  }

  /**
   * The phases of the Prometheus the drill names, which the simulated groups and scrapes keep; the
   * simulation's own when it does not answer, saying why.
   */
  private static LivePhases livePhases(Experiment experiment, PrintWriter out) {
    try {
      HttpPrometheusClient client = Wiring.prometheus(experiment, System.getenv());
      LivePhases live = LivePhases.read(client);
      out.println(
          "SIMULATION: rule groups and scrapes on the phases of "
              + client.server()
              + " ("
              + live.describe()
              + ")");
      return live;
    } catch (UserError | PrometheusException e) {
      out.println(
          "SIMULATION: rule groups and scrapes on phases of their own (none read from"
              + " prometheus.url: "
              + e.getMessage()
              + ")");
      return LivePhases.NONE;
    }
  }

  private LabModel model() {
    LabModel base;
    try {
      base = model == null ? LabModel.lab() : ModelFile.load(model);
    } catch (ModelException e) {
      throw new UserError(e.getMessage(), ExitCode.INVALID, e);
    }
    try {
      if (rate != null) {
        base = base.withRate(rate);
      }
      if (paymentsErrorRatio != null) {
        base = base.withPayments(base.payments().withErrorRatio(paymentsErrorRatio));
      }
      if (paymentsLatency != null) {
        base =
            base.withPayments(
                base.payments().withLatency(duration("--payments-latency", paymentsLatency)));
      }
      if (checkoutTimeout != null) {
        base = base.withCheckoutTimeout(duration("--checkout-timeout", checkoutTimeout));
      }
    } catch (IllegalArgumentException e) {
      throw new UserError("firedrill simulate: " + e.getMessage(), ExitCode.INVALID, e);
    }
    return base;
  }

  private static Duration duration(String option, String text) {
    try {
      return Durations.parse(text);
    } catch (IllegalArgumentException e) {
      throw new UserError(
          "firedrill simulate: " + option + " " + text + ": expected a duration such as 300ms",
          ExitCode.INVALID,
          e);
    }
  }

  private static String describe(LabModel model) {
    return Numbers.format(model.rate())
        + " checkouts/s, payments "
        + Durations.format(model.payments().latency())
        + " with "
        + Numbers.format(model.payments().errorRatio() * 100)
        + "% errors, checkout timeout "
        + Durations.format(model.checkoutTimeout());
  }
}
