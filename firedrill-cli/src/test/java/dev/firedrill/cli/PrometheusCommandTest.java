package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.embedded.EmbeddedPrometheus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import sun.misc.Signal;

/**
 * {@code firedrill prometheus} through Main's command line, with parts that scrape and evaluate
 * nothing.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PrometheusCommandTest {

  private static final String NL = System.lineSeparator();

  @TempDir Path dir;

  private record Started(
      CompletableFuture<Integer> exit,
      StringWriter out,
      StringWriter err,
      List<Duration> resendDelays) {}

  private static Started start(String... args) {
    EmbeddedPrometheus.Components nothing =
        new EmbeddedPrometheus.Components() {
          @Override
          public List<dev.firedrill.embedded.drive.Recurring> scrapes(
              dev.firedrill.promconfig.Config config,
              dev.firedrill.embedded.storage.Storage storage,
              dev.firedrill.time.Clock clock) {
            return List.of();
          }

          @Override
          public EmbeddedPrometheus.Rules rules(
              dev.firedrill.promconfig.Config config,
              dev.firedrill.embedded.storage.Storage storage,
              dev.firedrill.promql.eval.Engine engine,
              dev.firedrill.time.Clock clock,
              URI externalUrl) {
            return new EmbeddedPrometheus.Rules(List.of(), List::of, () -> {});
          }
        };
    CommandLine line = Main.commandLine();
    line.getCommandSpec().removeSubcommand("prometheus");
    List<Duration> resendDelays = new java.util.concurrent.CopyOnWriteArrayList<>();
    line.addSubcommand(
        "prometheus",
        new PrometheusCommand(
            (delay, compat) -> {
              resendDelays.add(delay);
              return nothing;
            }));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    line.setOut(new PrintWriter(out, true));
    line.setErr(new PrintWriter(err, true));
    String[] full = new String[args.length + 1];
    full[0] = "prometheus";
    System.arraycopy(args, 0, full, 1, args.length);
    return new Started(
        CompletableFuture.supplyAsync(() -> line.execute(full)), out, err, resendDelays);
  }

  private Path config(String yaml) throws Exception {
    return Files.writeString(dir.resolve("prometheus.yml"), yaml);
  }

  @Test
  void servesTheApiUntilSigtermAndStopsCleanly() throws Exception {
    Path file =
        config(
            "global:\n  scrape_interval: 15s\nscrape_configs:\n  - job_name: demo\n"
                + "    static_configs:\n      - targets: ['127.0.0.1:9']\n");
    Started prometheus =
        start(
            "--config",
            file.toString(),
            "--listen",
            "127.0.0.1:0",
            "--retention",
            "30m",
            "--resend-delay",
            "1s",
            "--compat",
            "2");
    Pattern serving =
        Pattern.compile(
            "prometheus: (http://127\\.0\\.0\\.1:\\d+) \\(config .*\\)"
                + NL
                + "running until SIGINT or SIGTERM");
    Matcher matcher;
    CountDownLatch never = new CountDownLatch(1);
    while (!(matcher = serving.matcher(prometheus.out().toString())).find()) {
      assertThat(prometheus.exit()).as(prometheus.err().toString()).isNotDone();
      assertThat(never.await(20, TimeUnit.MILLISECONDS)).isFalse();
    }
    assertThat(prometheus.out().toString())
        .startsWith(
            "prometheus: "
                + matcher.group(1)
                + " (config "
                + file
                + ": 1 scrape job(s), 0 rule file pattern(s); retention 30m; PromQL of Prometheus 2)");
    HttpResponse<String> ready =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(matcher.group(1) + "/-/ready"))
                    .timeout(Duration.ofSeconds(5))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(ready.body()).isEqualTo("Prometheus Server is Ready.\n");
    assertThat(prometheus.resendDelays()).containsExactly(Duration.ofSeconds(1));

    // TERM, not INT: a shell that starts the build in the background (nohup, &) leaves SIGINT
    // ignored,
    // and the JVM then refuses every handler for it.
    Signal.raise(new Signal("TERM"));

    int exit;
    try {
      exit = prometheus.exit().get(15, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError(
          "still running 15 s after SIGTERM; out: "
              + prometheus.out()
              + " err: "
              + prometheus.err(),
          e);
    }
    assertThat(exit).isZero();
    assertThat(prometheus.out().toString())
        .endsWith(
            "SIGTERM: stopping the embedded Prometheus"
                + NL
                + "prometheus: stopped (SIGTERM)"
                + NL);
  }

  @Test
  void aBadConfigIsOneLineAndExitTwo() throws Exception {
    Path file =
        config(
            "global:\n  scrape_interval: 15s\nremote_write:\n  - url: http://example.invalid/\n");
    Started prometheus = start("--config", file.toString());

    assertThat(prometheus.exit().get(10, TimeUnit.SECONDS)).isEqualTo(ExitCode.INVALID);
    assertThat(prometheus.err().toString())
        .isEqualTo(
            file
                + ": /remote_write: not supported by the embedded Prometheus"
                + " (supported keys: global, scrape_configs, rule_files, alerting)"
                + NL);
    assertThat(prometheus.out().toString()).isEmpty();
  }

  @Test
  void aMissingConfigAndBadOptionsAreOneLineAndExitTwo() throws Exception {
    Path missing = dir.resolve("absent.yml");
    Started noFile = start("--config", missing.toString());
    assertThat(noFile.exit().get(10, TimeUnit.SECONDS)).isEqualTo(ExitCode.INVALID);
    assertThat(noFile.err().toString()).isEqualTo(missing + ": cannot read: no such file" + NL);

    Started zero =
        start(
            "--config",
            config("global:\n  scrape_interval: 15s\n").toString(),
            "--retention",
            "0s");
    assertThat(zero.exit().get(10, TimeUnit.SECONDS)).isEqualTo(ExitCode.INVALID);
    assertThat(zero.err().toString())
        .isEqualTo(
            "firedrill prometheus: --retention 0s is not usable (expected more than 0)" + NL);

    Started resend =
        start(
            "--config",
            config("global:\n  scrape_interval: 15s\n").toString(),
            "--resend-delay",
            "soon");
    assertThat(resend.exit().get(10, TimeUnit.SECONDS)).isEqualTo(ExitCode.INVALID);
    assertThat(resend.err().toString())
        .isEqualTo(
            "firedrill prometheus: --resend-delay soon is not a duration"
                + " (expected such as 300ms, 5s, 10m or 24h)"
                + NL);
    assertThat(resend.resendDelays()).isEmpty();

    Started compat =
        start("--config", config("global:\n  scrape_interval: 15s\n").toString(), "--compat", "4");
    assertThat(compat.exit().get(10, TimeUnit.SECONDS)).isEqualTo(ExitCode.INVALID);
    assertThat(compat.err().toString())
        .isEqualTo(
            "firedrill prometheus: --compat 4 is not usable"
                + " (expected 2 or 3, the Prometheus major version to answer as)"
                + NL);
  }
}
