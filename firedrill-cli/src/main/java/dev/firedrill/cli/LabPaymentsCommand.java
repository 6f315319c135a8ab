package dev.firedrill.cli;

import dev.firedrill.lab.service.PaymentsService;
import dev.firedrill.lab.service.PaymentsSettings;
import dev.firedrill.time.Durations;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
    name = "payments",
    description =
        "The demo payments service: POST /pay answers 200 after --latency, or 500 for "
            + "--error-ratio of the requests; Prometheus metrics on --metrics. Runs until SIGINT/SIGTERM or --lifetime.")
final class LabPaymentsCommand implements Callable<Integer> {

  private static final String NAME = "lab payments";

  @Option(
      names = "--latency",
      paramLabel = "DURATION",
      defaultValue = "10ms",
      description =
          "How long each answer waits (default: ${DEFAULT-VALUE}); no thread is held meanwhile.")
  String latency;

  @Option(
      names = "--error-ratio",
      paramLabel = "RATIO",
      defaultValue = "0",
      description = "Share of requests answered 500, from 0 to 1 (default: ${DEFAULT-VALUE}).")
  double errorRatio;

  @Mixin LabServiceOptions service;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    Duration life = service.lifetime(NAME);
    PaymentsSettings settings;
    try {
      settings =
          new PaymentsSettings(
              service.listen(NAME),
              service.metrics(NAME),
              LabOptions.duration(NAME, "--latency", latency, Duration.ofMinutes(10)),
              errorRatio);
    } catch (IllegalArgumentException e) {
      throw LabOptions.refused(NAME, e);
    }
    try (PaymentsService payments = PaymentsService.start(settings)) {
      LabServiceOptions.serveUntilStopped(
          spec.commandLine().getOut(),
          NAME,
          "payments",
          life,
          "POST "
              + payments.url()
              + PaymentsService.ROUTE
              + ", metrics on "
              + payments.metricsUrl()
              + "; latency "
              + Durations.format(settings.latency())
              + ", error ratio "
              + settings.errorRatio(),
          () -> ", " + payments.calls() + " payment request(s) served");
      return ExitCode.HELD;
    } catch (UncheckedIOException e) {
      throw new UserError("firedrill " + NAME + ": " + e.getMessage(), ExitCode.INVALID, e);
    }
  }
}
