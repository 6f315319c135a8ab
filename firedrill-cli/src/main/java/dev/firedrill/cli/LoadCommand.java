package dev.firedrill.cli;

import dev.firedrill.lab.load.LoadGenerator;
import dev.firedrill.lab.load.LoadMetrics;
import dev.firedrill.lab.load.LoadPlan;
import dev.firedrill.lab.load.LoadResult;
import dev.firedrill.lab.metrics.MetricsEndpoint;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code firedrill load}: open-loop load at a fixed rate (see {@link LoadGenerator} for what the
 * in-flight cap does), then a summary. Exit 0 when the run ended, 3 when a signal stopped it, 2 on
 * a bad option or a refused target.
 */
@Command(
    name = "load",
    description =
        "Open-loop load: request i leaves at start + i/rate whatever the server does; "
            + "latency counts from that intended time, so a stall shows for every request due during it. Loopback targets only "
            + "unless --allow-remote. Prints target vs achieved rate, outcomes and p50/p99 at the end.")
final class LoadCommand implements Callable<Integer> {

  private static final String NAME = "load";

  @Option(
      names = "--url",
      paramLabel = "URL",
      required = true,
      description = "The target, such as http://127.0.0.1:8080/checkout.")
  String url;

  @Option(
      names = "--rate",
      paramLabel = "PER_SECOND",
      required = true,
      description = "Requests per second (at most 100000).")
  double rate;

  @Option(
      names = "--duration",
      paramLabel = "DURATION",
      required = true,
      description = "How long to send, at most 24h.")
  String duration;

  @Option(
      names = "--max-in-flight",
      paramLabel = "N",
      defaultValue = "1000",
      description =
          "Requests in flight at most (default: ${DEFAULT-VALUE}); a due request waits for a slot, its latency "
              + "still counting from its intended time.")
  int maxInFlight;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "5s",
      description = "Client timeout per request (default: ${DEFAULT-VALUE}).")
  String timeout;

  @Option(
      names = "--method",
      paramLabel = "METHOD",
      defaultValue = "GET",
      description =
          "GET, POST, PUT, DELETE, PATCH or HEAD, with an empty body (default: ${DEFAULT-VALUE}).")
  String method;

  @Option(
      names = "--metrics",
      paramLabel = "HOST:PORT",
      description =
          "Serve firedrill_load_requests_total and firedrill_load_request_duration_seconds here.")
  String metrics;

  @Option(
      names = "--experiment-id",
      paramLabel = "ID",
      description =
          "Send baggage: chaos.experiment.id=ID with every request (each also carries its own traceparent).")
  String experimentId;

  @Option(
      names = "--allow-remote",
      description = "Allow a target outside 127.0.0.0/8, ::1 and localhost.")
  boolean allowRemote;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    LoadPlan plan = plan();
    PrintWriter out = spec.commandLine().getOut();
    LoadMetrics loadMetrics = new LoadMetrics();
    Optional<MetricsEndpoint> endpoint = Optional.empty();
    try (StopOnSignals stop = StopOnSignals.install(out, "the load")) {
      endpoint =
          metrics == null
              ? Optional.empty()
              : Optional.of(
                  MetricsEndpoint.start(
                      loadMetrics.registry(), LabOptions.address(NAME, "--metrics", metrics)));
      endpoint.ifPresent(e -> out.println("load: metrics on " + e.url()));
      out.flush();
      LoadResult result = LoadGenerator.http(plan, loadMetrics).run(stop::requested);
      result.summary().forEach(out::println);
      out.flush();
      return stop.requested() ? ExitCode.ABORTED : ExitCode.HELD;
    } catch (UncheckedIOException e) {
      throw new UserError("firedrill load: " + e.getMessage(), ExitCode.INVALID, e);
    } finally {
      endpoint.ifPresent(MetricsEndpoint::close);
    }
  }

  private LoadPlan plan() {
    Duration length = LabOptions.positive(NAME, "--duration", duration, LoadPlan.MAX_DURATION);
    Duration clientTimeout = LabOptions.positive(NAME, "--timeout", timeout, Duration.ofMinutes(5));
    UrlOptions.refuseUserInfo("firedrill load", "--url", url);
    URI target;
    try {
      target = new URI(url);
    } catch (URISyntaxException e) {
      throw new UserError(
          "firedrill load: --url is not a URL (expected http://HOST:PORT/PATH)", ExitCode.INVALID);
    }
    try {
      return new LoadPlan(
          target,
          method.toUpperCase(Locale.ROOT),
          rate,
          length,
          maxInFlight,
          clientTimeout,
          Optional.ofNullable(experimentId),
          allowRemote);
    } catch (IllegalArgumentException e) {
      throw LabOptions.refused(NAME, e);
    }
  }
}
