package dev.firedrill.cli;

import dev.firedrill.lab.service.CheckoutService;
import dev.firedrill.lab.service.CheckoutSettings;
import dev.firedrill.time.Durations;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
    name = "checkout",
    description =
        "The demo checkout service: POST /checkout calls payments' POST /pay with "
            + "--timeout and one retry: 200 completed, 200 pending when payments timed out, 502 when it failed. Prometheus "
            + "metrics on --metrics. Runs until SIGINT/SIGTERM or --lifetime.")
final class LabCheckoutCommand implements Callable<Integer> {

  private static final String NAME = "lab checkout";

  @Option(
      names = "--payments",
      paramLabel = "URL",
      required = true,
      description = "Payments' base URL, such as http://127.0.0.1:8081 (/pay is appended).")
  String payments;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "300ms",
      description =
          "Client timeout of each call to payments (default: ${DEFAULT-VALUE}); one retry follows a timeout, "
              + "a 5xx or a refused connection.")
  String timeout;

  @Mixin LabServiceOptions service;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    Duration life = service.lifetime(NAME);
    CheckoutSettings settings;
    try {
      settings =
          CheckoutSettings.defaults(paymentsUrl())
              .withListen(service.listen(NAME))
              .withMetrics(service.metrics(NAME))
              .withTimeout(LabOptions.positive(NAME, "--timeout", timeout, Duration.ofMinutes(1)));
    } catch (IllegalArgumentException e) {
      throw LabOptions.refused(NAME, e);
    }
    try (CheckoutService checkout = CheckoutService.start(settings)) {
      LabServiceOptions.serveUntilStopped(
          spec.commandLine().getOut(),
          NAME,
          "checkout",
          life,
          "POST "
              + checkout.url()
              + CheckoutService.ROUTE
              + " -> "
              + settings.payments()
              + ", metrics on "
              + checkout.metricsUrl()
              + "; timeout "
              + Durations.format(settings.timeout()),
          () -> "");
      return ExitCode.HELD;
    } catch (UncheckedIOException e) {
      throw new UserError("firedrill " + NAME + ": " + e.getMessage(), ExitCode.INVALID, e);
    }
  }

  private URI paymentsUrl() {
    UrlOptions.refuseUserInfo("firedrill checkout", "--payments", payments);
    try {
      return new URI(payments);
    } catch (java.net.URISyntaxException e) {
      throw new UserError(
          "firedrill checkout: --payments is not a URL (expected http://HOST:PORT)",
          ExitCode.INVALID);
    }
  }
}
