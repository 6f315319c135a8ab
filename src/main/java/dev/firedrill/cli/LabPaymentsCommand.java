package dev.firedrill.cli;

import dev.firedrill.experiment.Durations;
import dev.firedrill.lab.service.PaymentsService;
import dev.firedrill.lab.service.PaymentsSettings;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "payments", description = "The demo payments service: POST /pay answers 200 after --latency, or 500 for "
    + "--error-ratio of the requests; Prometheus metrics on --metrics. Runs until SIGINT/SIGTERM or --lifetime.")
final class LabPaymentsCommand implements Callable<Integer> {

  private static final String NAME = "lab payments";

  @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:0",
      description = "Where to serve POST /pay (default: ${DEFAULT-VALUE}, a free port).")
  String listen;

  @Option(names = "--metrics", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:0",
      description = "Where to serve /metrics (default: ${DEFAULT-VALUE}, a free port).")
  String metrics;

  @Option(names = "--latency", paramLabel = "DURATION", defaultValue = "10ms",
      description = "How long each answer waits (default: ${DEFAULT-VALUE}); no thread is held meanwhile.")
  String latency;

  @Option(names = "--error-ratio", paramLabel = "RATIO", defaultValue = "0",
      description = "Share of requests answered 500, from 0 to 1 (default: ${DEFAULT-VALUE}).")
  double errorRatio;

  @Option(names = "--lifetime", paramLabel = "DURATION", defaultValue = "24h",
      description = "Stop after this long even without a signal (default: ${DEFAULT-VALUE}, at most 7d).")
  String lifetime;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    Duration life = LabOptions.positive(NAME, "--lifetime", lifetime, LabOptions.MAX_LIFETIME);
    PaymentsSettings settings;
    try {
      settings = new PaymentsSettings(LabOptions.address(NAME, "--listen", listen),
          LabOptions.address(NAME, "--metrics", metrics),
          LabOptions.duration(NAME, "--latency", latency, Duration.ofMinutes(10)), errorRatio);
    } catch (IllegalArgumentException e) {
      throw LabOptions.refused(NAME, e);
    }
    PrintWriter out = spec.commandLine().getOut();
    try (PaymentsService service = PaymentsService.start(settings);
        StopOnSignals stop = StopOnSignals.install(out, NAME)) {
      out.println("payments: POST " + service.url() + PaymentsService.ROUTE + ", metrics on " + service.metricsUrl()
          + "; latency " + Durations.format(settings.latency()) + ", error ratio " + settings.errorRatio()
          + "; stops on SIGINT/SIGTERM or after " + Durations.format(life));
      out.flush();
      boolean signalled = stop.await(life);
      out.println("payments: stopped (" + (signalled ? stop.reason().orElse("signal") : "lifetime " + Durations.format(life) + " ended")
          + "), " + service.calls() + " payment request(s) served");
      out.flush();
      return ExitCode.HELD;
    } catch (UncheckedIOException e) {
      throw new UserError("firedrill " + NAME + ": " + e.getMessage(), ExitCode.INVALID, e);
    }
  }
}
