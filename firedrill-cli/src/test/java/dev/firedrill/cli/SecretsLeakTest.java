package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.testing.SecretScan;
import dev.firedrill.testing.StubHttpServer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The credentials a drill reads from files, each a recognisable value: Prometheus's, Alertmanager's
 * and Grafana's as a bearer token file and as a basic-auth password file, the receiver's token
 * file. A drill that passes and one whose backends all fail and echo the credential each was sent
 * in its error body, with {@code --verbose}, then the Markdown, JUnit and HTML reports: no piece of
 * any credential shows in any file written (the SQLite history among them) nor on the console. The
 * same from the environment, and the credentials only the environment gives, against the packaged
 * jar: {@code EnvironmentSecretsLeakTest}. {@link LeakHunt} is what both share; {@link SecretScan}
 * the scan. URLs with credentials in them, in every URL field and option, are refused unechoed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SecretsLeakTest {

  @TempDir Path dir;

  private final LeakHunt hunt = new LeakHunt();

  @ParameterizedTest
  @EnumSource(
      value = LeakHunt.Form.class,
      names = {"BEARER_FILE", "BASIC_FILE"})
  void noCredentialShowsInAnyFileOrOnTheConsoleOfAPassingOrAFailingDrill(LeakHunt.Form form)
      throws Exception {
    Path secrets = Files.createDirectory(dir.resolve("secrets"));
    Path out = Files.createDirectory(dir.resolve("out"));
    for (String name : List.of("prometheus", "alertmanager", "receiver", "grafana")) {
      Files.writeString(secrets.resolve(name + ".secret"), hunt.secret(name) + "\n");
    }
    try (StubHttpServer prometheus = StubHttpServer.start();
        StubHttpServer alertmanager = StubHttpServer.start();
        StubHttpServer grafana = StubHttpServer.start()) {
      // A drill that passes: every backend healthy.
      prometheus.respondJson(200, LeakHunt.HEALTHY);
      alertmanager.respondJson(200, "[]");
      grafana.respondJson(200, "{\"id\":1,\"message\":\"Annotation added\"}");
      CliRun passing = drill("passing", form, out, secrets, prometheus, alertmanager, grafana);
      assertThat(passing.exit()).as(passing.describe()).isEqualTo(ExitCode.HELD);
      hunt.assertReceived(
          Map.of("prometheus", prometheus, "alertmanager", alertmanager, "grafana", grafana),
          Map.of("prometheus", form, "alertmanager", form, "grafana", form));
      hunt.console("passing", passing);

      // A drill whose backends fail, each echoing the credential it was sent in an HTML page.
      prometheus.respond(500, "text/html", LeakHunt.echo(hunt.secret("prometheus")));
      alertmanager.respond(503, "text/html", LeakHunt.echo(hunt.secret("alertmanager")));
      grafana.respond(401, "text/html", LeakHunt.echo(hunt.secret("grafana")));
      CliRun failing = drill("failing", form, out, secrets, prometheus, alertmanager, grafana);
      assertThat(failing.exit()).as(failing.describe()).isNotEqualTo(ExitCode.HELD);
      hunt.console("failing", failing);
    }
    hunt.reports(List.of(out.resolve("passing.json"), out.resolve("failing.json")));
    assertThat(Files.list(out).map(p -> p.getFileName().toString()).toList())
        .as("the journals, spans and reports the scan reads")
        .contains("passing.json", "failing.json", "history.sqlite");
    hunt.assertNowhere(List.of(out));
  }

  /**
   * Every URL field of the experiment file, each as {@code FIELD -> PLACE=YAML}: the password of a
   * URL with user-info in it is never shown, by validate or plan, the URL malformed or not.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "url -> PROMETHEUS=url: 'URL'",
        "url -> PROMETHEUS=url: 'MALFORMED'",
        "rules_url -> PROMETHEUS=url: 'http://127.0.0.1:9', rules_url: 'URL'",
        "url -> EXTRA=alertmanager: {url: 'URL'}",
        "url -> EXTRA=markers: {grafana: {url: 'URL'}}",
        "pushgateway -> EXTRA=markers: {metrics: {pushgateway: 'URL'}}",
        "proxy -> FAULT=kind: http-latency, proxy: 'URL', share: 0.05, latency: 50ms, ttl: 1m",
        "proxy -> FAULT=kind: exporter-down, proxy: 'URL', proxy_name: payments, ttl: 1m",
        "actuator -> FAULT=kind: spring-chaos-monkey, actuator: 'URL',"
            + " assaults: {level: 5, latency_range: 100ms..300ms}, ttl: 1m"
      })
  void aUrlWithUserInfoInAnyUrlFieldIsRefusedWithoutEchoingIt(String field) throws Exception {
    String password = hunt.secret("userinfo");
    String key = field.substring(0, field.indexOf(" -> "));
    String place = field.substring(field.indexOf(" -> ") + 4, field.indexOf('='));
    String yaml =
        field
            .substring(field.indexOf('=') + 1)
            .replace("MALFORMED", "http://firedrill:" + password + "@127.0.0.1:9/a b")
            .replace("URL", "http://firedrill:" + password + "@127.0.0.1:9/");
    Map<String, String> places =
        new java.util.HashMap<>(
            Map.of(
                "PROMETHEUS", "url: 'http://127.0.0.1:9'",
                "EXTRA", "",
                "FAULT", "kind: cpu-burn, workers: 1, ttl: 1m"));
    places.put(place, yaml);
    Path file =
        Files.writeString(
            dir.resolve("userinfo.yaml"),
            """
            id: userinfo
            title: User-info is refused
            prometheus: {%s}
            %s
            steady_state:
              slis: [{name: error_ratio, query: 'sum(rate(errors_total[1m]))', max: 0.02}]
            method:
              duration: 2s
              faults: [{%s}]
            abort: {rules: [{sli: error_ratio, above: 0.5}]}
            blast_radius: {traffic_share: 5%%, max_duration: 15m, max_workers: 1}
            """
                .formatted(places.get("PROMETHEUS"), places.get("EXTRA"), places.get("FAULT")));

    for (String command : List.of("validate", "plan")) {
      CliRun run = CliRun.of(command, file.toString(), "--verbose");
      assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.INVALID);
      assertThat(run.err())
          .as(run.describe())
          .containsPattern(key + "\\b.*credentials in the URL are refused");
      hunt.console(command, run);
    }
    hunt.assertNowhere(List.of()); // the file itself holds it: only what was printed
  }

  /** Every option that takes a URL: refused in one line that does not show the password. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "init --fault http-latency --prometheus URL",
        "load --url URL --rate 1 --duration 1s",
        "coverage --prometheus URL",
        "proxy --listen 127.0.0.1:0 --admin 127.0.0.1:0 --upstream URL",
        "proxy --listen 127.0.0.1:0 --admin 127.0.0.1:0 --upstream MALFORMED",
        "lab checkout --payments URL",
        "alertmanager --config alertmanager.yml --external-url URL",
        "history --history jdbc:postgresql://firedrill:PASSWORD@127.0.0.1:9/drills"
      })
  void aUrlWithUserInfoInAnyOptionIsRefusedWithoutEchoingIt(String line) throws Exception {
    String password = hunt.secret("userinfo");
    String[] args =
        line.replace("MALFORMED", "http://firedrill:" + password + "@127.0.0.1:9/a%zz")
            .replace("URL", "http://firedrill:" + password + "@127.0.0.1:9/")
            .replace("PASSWORD", password)
            .replace("alertmanager.yml", dir.resolve("alertmanager.yml").toString())
            .split(" ");
    CliRun run = CliRun.of(args);
    assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.INVALID);
    assertThat(run.err()).as(run.describe()).contains("credentials in the URL are refused");
    assertThat(run.err().strip().lines()).as("one line").hasSize(1);
    hunt.console(line, run);
    hunt.assertNowhere(List.of(dir));
  }

  private CliRun drill(
      String id,
      LeakHunt.Form form,
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
          timeout: 5s
          %s
        alertmanager:
          url: %s
          timeout: 5s
          %s
        receiver:
          listen: 127.0.0.1:%d
          bearer_token_file: %s
        markers:
          grafana:
            url: %s
            timeout: 5s
            %s
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
                form.yaml(secrets.resolve("prometheus.secret")),
                alertmanager.url(""),
                form.yaml(secrets.resolve("alertmanager.secret")),
                freePort(),
                secrets.resolve("receiver.secret"),
                grafana.url(""),
                form.yaml(secrets.resolve("grafana.secret"))));
    return CliRun.of(
        "run",
        file.toString(),
        "--journal",
        out.resolve(id + ".json").toString(),
        "--history",
        out.resolve("history.sqlite").toString(),
        "--verbose");
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
