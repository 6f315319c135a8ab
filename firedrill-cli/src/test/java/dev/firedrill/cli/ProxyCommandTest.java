package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/** {@code firedrill proxy} through Main's command line, with the environment the test gives it. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ProxyCommandTest {

  private record Started(
      ProxyCommand command, CompletableFuture<Integer> exit, StringWriter out, StringWriter err) {}

  private static Started start(Map<String, String> environment, String... args) {
    ProxyCommand command = new ProxyCommand();
    command.environment = environment;
    CommandLine line = Main.commandLine();
    line.getCommandSpec().removeSubcommand("proxy");
    line.addSubcommand("proxy", command);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    line.setOut(new PrintWriter(out, true));
    line.setErr(new PrintWriter(err, true));
    String[] full = new String[args.length + 1];
    full[0] = "proxy";
    System.arraycopy(args, 0, full, 1, args.length);
    return new Started(command, CompletableFuture.supplyAsync(() -> line.execute(full)), out, err);
  }

  @Test
  void runsUntilStoppedAndServesTheAdminApiWithItsToken() throws Exception {
    Started proxy =
        start(
            Map.of("PROXY_TOKEN", "tok-123"),
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            "http://127.0.0.1:9",
            "--admin",
            "127.0.0.1:0",
            "--metrics",
            "127.0.0.1:0",
            "--admin-token-env",
            "PROXY_TOKEN");
    Pattern adminLine = Pattern.compile("admin API: (http://127\\.0\\.0\\.1:\\d+)/proxies");
    Matcher matcher = adminLine.matcher("");
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!(matcher = adminLine.matcher(proxy.out().toString())).find()) {
      assertThat(proxy.exit()).as(proxy.err().toString()).isNotDone();
      assertThat(System.nanoTime()).as("the proxy printed its admin address").isLessThan(deadline);
      Thread.sleep(20);
    }
    URI admin = URI.create(matcher.group(1) + "/proxies");
    HttpClient client = HttpClient.newHttpClient();
    HttpResponse<String> denied =
        client.send(
            HttpRequest.newBuilder(admin).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(denied.statusCode()).isEqualTo(401);
    HttpResponse<String> listed =
        client.send(
            HttpRequest.newBuilder(admin)
                .header("Authorization", "Bearer tok-123")
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(listed.body()).contains("\"payments\"", "\"upstream\":\"http://127.0.0.1:9\"");
    assertThat(proxy.out().toString())
        .contains(
            "proxy payments (http): 127.0.0.1:",
            " -> http://127.0.0.1:9",
            "(bearer token from env PROXY_TOKEN)",
            "metrics: http://127.0.0.1:",
            "running until SIGINT or SIGTERM")
        .doesNotContain("tok-123");

    proxy.command().stop();
    assertThat(proxy.exit().get(5, TimeUnit.SECONDS)).isZero();
    assertThat(proxy.out().toString()).contains("proxy payments: stopped");
  }

  @Test
  void refusesBadOptionsInOneLine() throws Exception {
    Started noToken =
        start(
            Map.of(),
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            "http://127.0.0.1:9",
            "--admin",
            "127.0.0.1:0",
            "--admin-token-env",
            "PROXY_TOKEN");
    assertThat(noToken.exit().get(5, TimeUnit.SECONDS)).isEqualTo(ExitCode.INVALID);
    assertThat(noToken.err().toString())
        .isEqualTo(
            "--admin-token-env PROXY_TOKEN: the environment variable is not set"
                + " (expected the admin API's bearer token)"
                + System.lineSeparator());

    Started badListen =
        start(
            Map.of(),
            "--listen",
            "8080",
            "--upstream",
            "http://127.0.0.1:9",
            "--admin",
            "127.0.0.1:0");
    assertThat(badListen.exit().get(5, TimeUnit.SECONDS)).isEqualTo(ExitCode.INVALID);
    assertThat(badListen.err().toString())
        .startsWith("--listen 8080: expected HOST:PORT such as 127.0.0.1:8474");

    Started https =
        start(
            Map.of(),
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            "https://127.0.0.1:9",
            "--admin",
            "127.0.0.1:0");
    assertThat(https.exit().get(5, TimeUnit.SECONDS)).isEqualTo(ExitCode.INVALID);
    assertThat(https.err().toString())
        .startsWith("firedrill proxy: upstream https://127.0.0.1:9: expected an http:// URL");

    Started mode =
        start(
            Map.of(),
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            "http://127.0.0.1:9",
            "--admin",
            "127.0.0.1:0",
            "--mode",
            "udp");
    assertThat(mode.exit().get(5, TimeUnit.SECONDS)).isEqualTo(ExitCode.INVALID);
    assertThat(mode.err().toString()).startsWith("--mode udp: expected http or tcp");
  }
}
