package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.testing.SecretScan;
import dev.firedrill.testing.StubHttpServer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The credentials a drill reads from files (Prometheus's, Alertmanager's, the receiver's and
 * Grafana's tokens), each a recognisable value, through a drill that passes and one whose backends
 * all fail and echo the token each was sent in its error body, with {@code --verbose}, then the
 * Markdown and JUnit reports: no piece of any token shows in any file written (the SQLite history
 * among them) nor on the console. {@link SecretScan} is the scan.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SecretsLeakTest {

  private static final String HEALTHY =
      "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
          + "[{\"metric\":{},\"value\":[1700000000,\"0\"]}],"
          // one answer serves the queries, the rules and the alerts: the stub has no paths
          + "\"groups\":[{\"name\":\"checkout\",\"file\":\"checkout.yml\",\"interval\":1,"
          + "\"rules\":[{\"type\":\"alerting\",\"name\":\"CheckoutDown\",\"query\":\"up == 0\","
          + "\"duration\":0,\"labels\":{},\"annotations\":{},\"alerts\":[],\"health\":\"ok\","
          + "\"state\":\"inactive\"}]}],\"alerts\":[]}}";

  @TempDir Path dir;

  private final Map<String, String> tokens = new LinkedHashMap<>();

  private String token(String name) {
    return tokens.computeIfAbsent(name, n -> "fd" + UUID.randomUUID().toString().replace("-", ""));
  }

  @Test
  void noTokenShowsInAnyFileOrOnTheConsoleOfAPassingOrAFailingDrill() throws Exception {
    Path secrets = Files.createDirectory(dir.resolve("secrets"));
    Path out = Files.createDirectory(dir.resolve("out"));
    for (String name : List.of("prometheus", "alertmanager", "receiver", "grafana")) {
      Files.writeString(secrets.resolve(name + ".token"), token(name) + "\n");
    }
    Map<String, String> console = new LinkedHashMap<>();
    try (StubHttpServer prometheus = StubHttpServer.start();
        StubHttpServer alertmanager = StubHttpServer.start();
        StubHttpServer grafana = StubHttpServer.start()) {
      // A drill that passes: every backend healthy.
      prometheus.respondJson(200, HEALTHY);
      alertmanager.respondJson(200, "[]");
      grafana.respondJson(200, "{\"id\":1,\"message\":\"Annotation added\"}");
      CliRun passing = drill("passing", out, secrets, prometheus, alertmanager, grafana);
      assertThat(passing.exit()).as(passing.describe()).isEqualTo(ExitCode.HELD);
      assertThat(prometheus.requests())
          .as("the token reached Prometheus, so it was read")
          .anySatisfy(
              r ->
                  assertThat(r.headers().get("authorization"))
                      .isEqualTo("Bearer " + token("prometheus")));
      record(console, "passing", passing);

      // A drill whose backends fail, each echoing the token it was sent in an HTML error page.
      prometheus.respond(500, "text/html", echo(token("prometheus")));
      alertmanager.respond(503, "text/html", echo(token("alertmanager")));
      grafana.respond(401, "text/html", echo(token("grafana")));
      CliRun failing = drill("failing", out, secrets, prometheus, alertmanager, grafana);
      assertThat(failing.exit()).as(failing.describe()).isNotEqualTo(ExitCode.HELD);
      record(console, "failing", failing);
    }
    for (Path journal : List.of(out.resolve("passing.json"), out.resolve("failing.json"))) {
      for (String format : List.of("md", "junit", "html")) {
        CliRun report = CliRun.of("report", journal.toString(), "--format", format);
        record(console, "report " + format + " of " + journal.getFileName(), report);
      }
    }
    assertThat(Files.list(out).map(p -> p.getFileName().toString()).toList())
        .as("the journals, spans and reports the scan reads")
        .contains("passing.json", "failing.json", "history.sqlite");
    for (Map.Entry<String, String> token : tokens.entrySet()) {
      SecretScan.assertNowhere(token.getValue(), List.of(out), console);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "prometheus: {url: 'URL'}",
        "alertmanager: {url: 'URL'}",
        "markers: {grafana: {url: 'URL'}}",
        "markers: {metrics: {pushgateway: 'URL'}}"
      })
  void aUrlWithUserInfoIsRefusedWithoutEchoingIt(String section) throws Exception {
    String password = token("userinfo");
    String url = "http://firedrill:" + password + "@127.0.0.1:9/";
    Path file = dir.resolve("userinfo.yaml");
    String experiment =
        """
        id: userinfo
        title: User-info is refused
        prometheus: {url: 'http://127.0.0.1:9'}
        steady_state:
          slis: [{name: error_ratio, query: 'sum(rate(errors_total[1m]))', max: 0.02}]
        method:
          duration: 2s
          faults: [{kind: cpu-burn, workers: 1, ttl: 1m}]
        abort: {rules: [{sli: error_ratio, above: 0.5}]}
        blast_radius: {traffic_share: 5%, max_duration: 15m, max_workers: 1}
        """;
    String key = section.substring(0, section.indexOf(':'));
    experiment =
        key.equals("prometheus")
            ? experiment.replace(
                "prometheus: {url: 'http://127.0.0.1:9'}", section.replace("URL", url))
            : experiment + section.replace("URL", url) + "\n";
    Files.writeString(file, experiment);

    for (String command : List.of("validate", "plan")) {
      CliRun run = CliRun.of(command, file.toString(), "--verbose");
      assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.INVALID);
      assertThat(run.err()).as(run.describe()).contains("user");
      SecretScan.assertNowhere(
          password,
          List.of(),
          Map.of(command + " stdout", run.out(), command + " stderr", run.err()));
    }
  }

  private CliRun drill(
      String id,
      Path out,
      Path secrets,
      StubHttpServer prometheus,
      StubHttpServer alertmanager,
      StubHttpServer grafana)
      throws Exception {
    Path file = out.resolve(id + ".yaml");
    Files.writeString(
        file,
        """
        id: %s
        title: No token leaks
        prometheus:
          url: %s
          timeout: 1s
          bearer_token_file: %s
        alertmanager:
          url: %s
          timeout: 1s
          bearer_token_file: %s
        receiver:
          listen: 127.0.0.1:%d
          bearer_token_file: %s
        markers:
          grafana:
            url: %s
            timeout: 1s
            bearer_token_file: %s
        steady_state:
          interval: 1s
          slis:
            - name: error_ratio
              query: 'sum(rate(errors_total[1m]))'
              max: 0.02
        hypothesis:
          recovery: 1s
          alerts:
            # silent, and so held, and a row in the history the scan reads
            - alert: CheckoutDown
              expect: silent
              within: 2s
        method:
          duration: 2s
          faults:
            - kind: cpu-burn
              workers: 1
              ttl: 1m
        abort:
          rules: [{sli: error_ratio, above: 0.5}]
        blast_radius:
          traffic_share: 5%%
          max_duration: 15m
          max_workers: 1
        """
            .formatted(
                id,
                prometheus.url(""),
                secrets.resolve("prometheus.token"),
                alertmanager.url(""),
                secrets.resolve("alertmanager.token"),
                freePort(),
                secrets.resolve("receiver.token"),
                grafana.url(""),
                secrets.resolve("grafana.token")));
    return CliRun.of(
        "run",
        file.toString(),
        "--journal",
        out.resolve(id + ".json").toString(),
        "--history",
        out.resolve("history.sqlite").toString(),
        "--verbose");
  }

  private static String echo(String token) {
    return "<html><body><h1>Denied</h1><p>Authorization: Bearer " + token + "</p></body></html>";
  }

  private static void record(Map<String, String> console, String what, CliRun run) {
    console.put(what + " stdout", run.out());
    console.put(what + " stderr", run.err());
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
