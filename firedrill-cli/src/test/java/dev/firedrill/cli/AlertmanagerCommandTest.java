package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code firedrill alertmanager} through Main's command line. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AlertmanagerCommandTest {

  @TempDir Path dir;

  /** Output that opens a latch once the command says it is running. */
  private static final class Console extends StringWriter {
    final CountDownLatch running = new CountDownLatch(1);

    @Override
    public void flush() {
      if (toString().contains("running until SIGINT or SIGTERM")) {
        running.countDown();
      }
    }
  }

  @Test
  void servesTheApiUntilStoppedThenStopsCleanly() throws Exception {
    AlertmanagerCommand command = new AlertmanagerCommand();
    CommandLine line = Main.commandLine();
    line.getCommandSpec().removeSubcommand("alertmanager");
    line.addSubcommand("alertmanager", command);
    Console out = new Console();
    StringWriter err = new StringWriter();
    line.setOut(new PrintWriter(out, true));
    line.setErr(new PrintWriter(err, true));
    String config = Path.of("fixtures/lab/alertmanager.yml").toString();
    CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(
            () -> line.execute("alertmanager", "--config", config, "--listen", "127.0.0.1:0"));

    assertThat(out.running.await(10, TimeUnit.SECONDS)).as("started: %s %s", out, err).isTrue();
    Matcher url =
        Pattern.compile(
                "embedded Alertmanager: (http://127\\.0\\.0\\.1:\\d+) \\(config "
                    + Pattern.quote(config)
                    + ", receivers: unrouted, team-payments, team-checkout\\)")
            .matcher(out.toString());
    assertThat(url.find()).as(out.toString()).isTrue();
    HttpClient http = HttpClient.newHttpClient();
    HttpResponse<String> ready =
        http.send(
            HttpRequest.newBuilder(URI.create(url.group(1) + "/-/ready"))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(ready.body()).isEqualTo("OK");
    HttpResponse<String> alerts =
        http.send(
            HttpRequest.newBuilder(URI.create(url.group(1) + "/api/v2/alerts"))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(alerts.body()).isEqualTo("[]\n");

    command.stop();
    assertThat(exit.get(10, TimeUnit.SECONDS)).isEqualTo(ExitCode.HELD);
    assertThat(out.toString()).endsWith("embedded Alertmanager: stopped" + System.lineSeparator());
  }

  @Test
  void aBadConfigIsOneLineAndExit2() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("alertmanager.yml"),
            """
        route:
          receiver: a
        receivers:
          - name: a
            slack_configs:
              - channel: '#alerts'
        """);
    CliRun run = CliRun.of("alertmanager", "--config", file.toString());
    assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.INVALID);
    assertThat(run.err())
        .isEqualTo(
            file
                + ": /receivers/0/slack_configs: not supported by the embedded Alertmanager "
                + "(only webhook_configs) (line 5, column 5)"
                + System.lineSeparator());
    assertThat(run.out()).isEmpty();
  }

  @Test
  void aBadListenAddressIsOneLineAndExit2() {
    CliRun run =
        CliRun.of("alertmanager", "--config", "fixtures/lab/alertmanager.yml", "--listen", "9093");
    assertThat(run.exit()).isEqualTo(ExitCode.INVALID);
    assertThat(run.err())
        .isEqualTo(
            "firedrill alertmanager: --listen address \"9093\" is not usable (expected "
                + "HOST:PORT with an IP address or localhost, such as 127.0.0.1:9000)"
                + System.lineSeparator());
  }
}
