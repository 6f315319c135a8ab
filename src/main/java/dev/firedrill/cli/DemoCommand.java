package dev.firedrill.cli;

import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.JournalFile;
import dev.firedrill.engine.Verdict;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.lab.DemoServiceProcess;
import dev.firedrill.lab.stack.LocalPrometheus;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.prometheus.QueryResult;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "demo", description = "Two drills on loopback against the real Prometheus: a synthetic service, "
    + "a cpu-burn that should hold, and a paused process that the abort rule should catch and roll back.")
final class DemoCommand implements Callable<Integer> {

  private static final Duration DATA_TIMEOUT = Duration.ofSeconds(30);
  private static final String ERROR_RATIO =
      "sum(rate(demo_requests_total{code=\"500\"}[5s])) / sum(rate(demo_requests_total[5s]))";

  @Option(names = "--dir", paramLabel = "DIR",
      description = "Where to write the demo's experiment files and journals (default: journals/demo-<UTC time>).")
  Path dir;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  private record DemoDrill(String template, Verdict expected) {}

  private static final List<DemoDrill> DRILLS = List.of(
      new DemoDrill("demo-cpu-burn.yaml", Verdict.HELD),
      new DemoDrill("demo-pause-service.yaml", Verdict.ABORTED));

  @Override
  public Integer call() throws IOException, InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    Path binary = LocalPrometheus.findBinary().orElseThrow(() -> new UserError(
        "firedrill demo: the prometheus binary is not on the PATH; run bin/install-deps (or apt-get install prometheus),"
            + " or set FIREDRILL_PROMETHEUS to its path", ExitCode.INVALID));
    Path workDir = dir != null ? dir : Path.of("journals", "demo-" + RunCommand.STAMP.format(Instant.now()));
    Files.createDirectories(workDir);
    Clock clock = Clock.system();

    try (DemoServiceProcess service = DemoServiceProcess.start(0.001, Duration.ofMinutes(10), clock);
        LocalPrometheus prometheus = startPrometheus(binary, service, clock)) {
      out.println("demo: synthetic service on " + service.address() + ", prometheus " + binary + " on "
          + prometheus.url() + " (1s scrape and evaluation)");
      awaitData(prometheus, clock, out);
      int failures = 0;
      StringBuilder summary = new StringBuilder();
      for (DemoDrill drill : DRILLS) {
        Path file = instantiate(drill.template(), workDir, prometheus, service);
        out.println();
        out.println("demo: firedrill run " + file);
        out.flush();
        Experiment experiment = Wiring.load(file);
        JournalFile journal = new JournalFile(workDir.resolve(experiment.id() + ".journal.json"));
        DrillResult result = DrillRunner.run(experiment, file.toString(), journal, out, Optional.empty());
        boolean asExpected = result.verdict() == drill.expected() && result.rollbackOk();
        failures += asExpected ? 0 : 1;
        summary.append(String.format("  %-20s %-9s exit %d  %s%n", experiment.id(), result.verdict().text(),
            ExitCode.of(result), asExpected ? "as expected" : "expected " + drill.expected().text()));
        if (Thread.currentThread().isInterrupted()) {
          break;
        }
      }
      out.println();
      out.println("demo summary (experiments and journals in " + workDir + "):");
      out.print(summary);
      out.flush();
      return failures == 0 ? ExitCode.HELD : ExitCode.DEVIATED;
    }
  }

  private static LocalPrometheus startPrometheus(Path binary, DemoServiceProcess service, Clock clock) {
    try {
      return LocalPrometheus.start(binary, List.of(service.address()), List.of(), clock);
    } catch (IllegalStateException e) {
      throw new UserError("firedrill demo: " + e.getMessage(), ExitCode.INVALID, e);
    }
  }

  /** A drill on an empty Prometheus would be not-run: wait until the rate windows hold samples. */
  private static void awaitData(LocalPrometheus prometheus, Clock clock, PrintWriter out) throws InterruptedException {
    HttpPrometheusClient client = new HttpPrometheusClient(prometheus.url(), Duration.ofSeconds(2), Optional.empty());
    out.println("demo: waiting for the first scrapes to fill the 5s rate windows");
    out.flush();
    long deadline = clock.nanoTime() + DATA_TIMEOUT.toNanos();
    while (clock.nanoTime() < deadline) {
      try {
        if (client.query(ERROR_RATIO) instanceof QueryResult.Vector vector && !vector.samples().isEmpty()
            && !Double.isNaN(vector.samples().get(0).value())) {
          return;
        }
      } catch (PrometheusException e) {
        // not scraped yet
      }
      clock.sleep(Duration.ofMillis(500));
    }
    throw new UserError("firedrill demo: prometheus at " + prometheus.url() + " had no data for " + ERROR_RATIO
        + " after " + DATA_TIMEOUT.toSeconds() + "s; its log: " + prometheus.logFile(), ExitCode.INCONCLUSIVE);
  }

  private static Path instantiate(String template, Path workDir, LocalPrometheus prometheus, DemoServiceProcess service)
      throws IOException {
    String text;
    try (InputStream in = DemoCommand.class.getResourceAsStream("/dev/firedrill/lab/" + template)) {
      if (in == null) {
        throw new IllegalStateException("the demo experiment " + template + " is missing from the jar");
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    text = text.replace("${PROMETHEUS_URL}", prometheus.url().toString()).replace("${SERVICE_MATCH}", service.match());
    return Files.writeString(workDir.resolve(template), text);
  }
}
