package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.kubernetes.testing.TestCluster;
import dev.firedrill.net.Loopback;
import dev.firedrill.spring.testing.SpringApp;
import dev.firedrill.testing.FiredrillJar;
import dev.firedrill.testing.Poll;
import dev.firedrill.testing.RealPostgres;
import dev.firedrill.testing.SecretScan;
import dev.firedrill.testing.StubHttpServer;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The credentials a drill reads from its environment, and those only a real server can take, each a
 * recognisable value, through the packaged jar with {@code --verbose}: the fault proxy's admin
 * token ({@code admin_token_env}, against a real {@code firedrill proxy --admin-token-env}), the
 * PostgreSQL history store's password (a role a real PostgreSQL makes log in with SCRAM; from the
 * file {@code FIREDRILL_HISTORY_PASSWORD_FILE} names and from {@code PGPASSWORD}), the OTLP
 * exporter's header ({@code OTEL_EXPORTER_OTLP_HEADERS}), Prometheus's, Alertmanager's and
 * Grafana's {@code bearer_token_env} and basic-auth {@code password_env}, the receiver's {@code
 * bearer_token_env}, the Chaos Monkey actuator's {@code token_env} and {@code token_file} (against
 * the real Spring Boot application), the kubeconfig's token. Each goes through a drill that passes
 * and one whose servers refuse it and echo what each was sent; then the reports and {@code
 * history}. No piece of any credential shows in any file written (journals, events, spans, reports,
 * the proxy's and the application's logs), in the history's rows or on any console. {@link
 * SecretsLeakTest} does the same in-process for the credentials read from files; {@link LeakHunt}
 * is what both share.
 */
class EnvironmentSecretsLeakTest {

  private static final Duration LIMIT = Duration.ofSeconds(120);

  @RegisterExtension static final RealPostgres.PerClass postgres = new RealPostgres.PerClass();

  @TempDir Path dir;

  private final LeakHunt hunt = new LeakHunt();

  @Test
  void noCredentialFromTheEnvironmentShowsInAnyFileRowOrConsole() throws Exception {
    Path out = Files.createDirectory(dir.resolve("out"));
    Path logs = Files.createDirectory(dir.resolve("logs"));
    Path passwordFile =
        Files.writeString(dir.resolve("pg.password"), hunt.secret("postgres") + "\n");
    String history = postgres.newSchemaForPasswordRole("leaker", hunt.secret("postgres"));
    int adminPort = Loopback.freePort();
    Map<String, String> env = new LinkedHashMap<>();
    env.put("FD_PROXY_TOKEN", hunt.secret("proxy"));
    env.put("FD_PROMETHEUS_PASSWORD", hunt.secret("prometheus"));
    env.put("FD_ALERTMANAGER_TOKEN", hunt.secret("alertmanager"));
    env.put("FD_GRAFANA_TOKEN", hunt.secret("grafana"));
    env.put("FD_RECEIVER_TOKEN", hunt.secret("receiver"));
    env.put("FIREDRILL_HISTORY_USER", "leaker");
    env.put("FIREDRILL_HISTORY_PASSWORD_FILE", passwordFile.toString());
    env.put("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20" + hunt.secret("otlp"));
    Map<String, LeakHunt.Form> forms =
        Map.of(
            "prometheus", LeakHunt.Form.BASIC_ENV,
            "alertmanager", LeakHunt.Form.BEARER_ENV,
            "grafana", LeakHunt.Form.BEARER_ENV);

    try (Backends backends = new Backends();
        StubHttpServer upstream = StubHttpServer.start();
        StubHttpServer collector = StubHttpServer.start();
        StubHttpServer refusingProxy = StubHttpServer.start()) {
      upstream.respond(200, "text/plain", "ok");
      collector.respond(200, "application/x-protobuf", "");
      env.put("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", collector.url("/v1/traces").toString());
      Process proxy =
          FiredrillJar.start(
              dir,
              logs.resolve("proxy.out"),
              logs.resolve("proxy.err"),
              env,
              "proxy",
              "--listen",
              "127.0.0.1:" + Loopback.freePort(),
              "--upstream",
              upstream.url("").toString(),
              "--admin",
              "127.0.0.1:" + adminPort,
              "--name",
              "payments",
              "--admin-token-env",
              "FD_PROXY_TOKEN",
              "--verbose");
      try {
        Poll.until(
            "the proxy's admin API to listen",
            Duration.ofSeconds(30),
            () -> {
              try (Socket ignored = new Socket("127.0.0.1", adminPort)) {
                return Optional.of(true);
              }
            });
        String fault =
            """
            - kind: http-latency
              proxy: %s
              proxy_name: payments
              share: 0.05
              latency: 50ms
              ttl: 1m
              admin_token_env: FD_PROXY_TOKEN""";

        // A drill that passes: the proxy takes the token, the collector the header, PostgreSQL the
        // password, every backend its credential.
        backends.healthy();
        FiredrillJar.Run passing =
            drill(
                "passing",
                out,
                backends,
                forms,
                fault.formatted("http://127.0.0.1:" + adminPort),
                history,
                env);
        assertThat(passing.exit()).as(passing.output()).isEqualTo(ExitCode.HELD);
        backends.assertReceived(forms, hunt);
        assertThat(collector.requests())
            .as("the header reached the collector, so it was read")
            .anySatisfy(
                r ->
                    assertThat(r.headers().get("authorization"))
                        .isEqualTo("Bearer " + hunt.secret("otlp")));
        hunt.console("passing", passing.output());

        // A drill whose proxy and collector refuse it, each echoing what it was sent, and whose
        // backends echo theirs: Prometheus in a warning, Alertmanager and Grafana in error pages.
        // The proxy answers the check before injection, then refuses the toxic.
        refusingProxy
            .respondJson(200, "[]")
            .after(1, stub -> stub.respond(401, "text/html", LeakHunt.echo(hunt.secret("proxy"))));
        collector.respond(401, "text/html", LeakHunt.echo(hunt.secret("otlp")));
        backends.echoing(hunt);
        FiredrillJar.Run failing =
            drill(
                "failing",
                out,
                backends,
                forms,
                fault.formatted(refusingProxy.url("")),
                history,
                env);
        // the toxic is refused, and so is its removal: the rollback's message is printed too
        assertThat(failing.exit()).as(failing.output()).isEqualTo(ExitCode.ROLLBACK_FAILED);
        assertThat(refusingProxy.requests())
            .as("the token reached the refusing proxy")
            .anySatisfy(
                r ->
                    assertThat(r.headers().get("authorization"))
                        .isEqualTo("Bearer " + hunt.secret("proxy")));
        hunt.console("failing", failing.output());
      } finally {
        FiredrillJar.stop(proxy);
      }
    }
    assertHistoryAndReports(out, history, env);
    hunt.assertNowhere(List.of(out, logs));
  }

  /**
   * The Chaos Monkey actuator's token from {@code token_env} and from {@code token_file}, against
   * the real Spring Boot application, each with a drill that passes and one whose actuator refuses
   * it echoing it; beside it the other environment forms of the backends' credentials (Prometheus's
   * {@code bearer_token_env}, Alertmanager's and Grafana's basic-auth {@code password_env}) and the
   * history's password from {@code PGPASSWORD}.
   */
  @Test
  void theActuatorsTokenAndTheOtherEnvironmentFormsShowNowhere() throws Exception {
    Path out = Files.createDirectory(dir.resolve("out"));
    Path app = Files.createDirectory(dir.resolve("app"));
    Path tokenFile =
        Files.writeString(dir.resolve("actuator.token"), hunt.secret("actuator file") + "\n");
    String history = postgres.newSchemaForPasswordRole("pgpassword", hunt.secret("postgres"));
    Map<String, String> env = new LinkedHashMap<>();
    env.put("FD_ACTUATOR_TOKEN", hunt.secret("actuator env"));
    env.put("FD_PROMETHEUS_TOKEN", hunt.secret("prometheus"));
    env.put("FD_ALERTMANAGER_PASSWORD", hunt.secret("alertmanager"));
    env.put("FD_GRAFANA_PASSWORD", hunt.secret("grafana"));
    env.put("PGUSER", "pgpassword");
    env.put("PGPASSWORD", hunt.secret("postgres"));
    Map<String, LeakHunt.Form> forms =
        Map.of(
            "prometheus", LeakHunt.Form.BEARER_ENV,
            "alertmanager", LeakHunt.Form.BASIC_ENV,
            "grafana", LeakHunt.Form.BASIC_ENV);
    String fault =
        """
        - kind: spring-chaos-monkey
          actuator: %s
          %s
          assaults: {level: 20, deterministic: true, latency_range: 10ms..20ms}
          watchers: {service: true}
          ttl: 1m""";
    try (SpringApp spring = SpringApp.start(app);
        Backends backends = new Backends();
        StubHttpServer refusing = StubHttpServer.start()) {
      for (String form : List.of("env", "file")) {
        String token = hunt.secret("actuator " + form);
        String key =
            form.equals("env") ? "token_env: FD_ACTUATOR_TOKEN" : "token_file: " + tokenFile;
        backends.healthy();
        FiredrillJar.Run passing =
            drill(
                "actuator-" + form + "-passing",
                out,
                backends,
                forms,
                fault.formatted(spring.actuator(), key),
                history,
                env);
        assertThat(passing.exit()).as(passing.output()).isEqualTo(ExitCode.HELD);
        backends.assertReceived(forms, hunt);
        hunt.console("actuator " + form + " passing", passing.output());

        refusing.respond(401, "text/html", LeakHunt.echo(token));
        backends.echoing(hunt);
        FiredrillJar.Run failing =
            drill(
                "actuator-" + form + "-failing",
                out,
                backends,
                forms,
                fault.formatted(refusing.url("/actuator"), key),
                history,
                env);
        assertThat(failing.exit()).as(failing.output()).isNotEqualTo(ExitCode.HELD);
        assertThat(refusing.requests())
            .as("the token reached the refusing actuator")
            .anySatisfy(
                r -> assertThat(r.headers().get("authorization")).isEqualTo("Bearer " + token));
        hunt.console("actuator " + form + " failing", failing.output());
      }
      hunt.console("the application's log", spring.tail());
    }
    assertHistoryAndReports(out, history, env);
    hunt.assertNowhere(List.of(out, app));
  }

  /** {@code history} lists every drill, each journal is reported, the rows are dumped. */
  private void assertHistoryAndReports(Path out, String history, Map<String, String> env)
      throws Exception {
    List<Path> journals;
    try (var files = Files.list(out)) {
      // a drill's journal is ID.json; ID.holds.json and the like are its companions
      journals =
          files.filter(f -> f.getFileName().toString().matches("[a-z-]+\\.json")).sorted().toList();
    }
    FiredrillJar.Run rows =
        FiredrillJar.run(dir, LIMIT, env, "history", "--history", history, "--verbose");
    assertThat(rows.exit()).as(rows.output()).isZero();
    for (Path journal : journals) {
      String id = journal.getFileName().toString().replace(".json", "");
      assertThat(rows.output()).as("history lists every drill").contains(id);
    }
    hunt.console("history", rows.output());
    hunt.reports(journals);
    String schema = history.substring(history.indexOf("currentSchema=") + 14);
    String dumped = postgres.dump(schema);
    assertThat(dumped).as("the history's rows").contains("passing", "failing");
    hunt.console("PostgreSQL rows of " + schema, dumped);
  }

  @Test
  void theKubeconfigsTokenShowsInNoFileNorConsoleOfAPassingOrARefusedPodDelete() throws Exception {
    Path out = Files.createDirectory(dir.resolve("out"));
    try (TestCluster cluster = new TestCluster(Duration.ofMillis(100), Duration.ofMillis(100));
        StubHttpServer prometheus = StubHttpServer.start();
        StubHttpServer refusing = StubHttpServer.start()) {
      cluster.deployment("shop", "web", 3, Map.of("app", "web"));
      prometheus.respondJson(200, LeakHunt.HEALTHY);
      Path kubeconfig = cluster.kubeconfig(Files.createDirectory(dir.resolve("cluster")));
      FiredrillJar.Run passing = podDelete("pod-delete-passing", out, prometheus, kubeconfig);
      assertThat(passing.exit()).as(passing.output()).isEqualTo(ExitCode.HELD);
      assertThat(cluster.replacements()).as("a pod was deleted, so the token was used").isOne();
      hunt.console("passing", passing.output());

      // An API server that refuses the token, quoting it in its Status message.
      refusing.respondJson(
          401,
          "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":"
              + "\"Unauthorized: token "
              + TestCluster.TOKEN
              + " is unknown\",\"reason\":\"Unauthorized\",\"code\":401}");
      Path refused =
          Files.writeString(
              Files.createDirectory(dir.resolve("refusing")).resolve("kubeconfig"),
              Files.readString(kubeconfig).replaceAll("server: .*", "server: " + refusing.url("")));
      FiredrillJar.Run failing = podDelete("pod-delete-failing", out, prometheus, refused);
      assertThat(failing.exit()).as(failing.output()).isNotEqualTo(ExitCode.HELD);
      assertThat(refusing.requests())
          .as("the token reached the refusing server")
          .anySatisfy(
              r ->
                  assertThat(r.headers().get("authorization"))
                      .isEqualTo("Bearer " + TestCluster.TOKEN));
      hunt.console("failing", failing.output());
    }
    hunt.reports(
        List.of(out.resolve("pod-delete-passing.json"), out.resolve("pod-delete-failing.json")));
    assertThat(SecretScan.findings(TestCluster.TOKEN, List.of(out), hunt.consoles()))
        .as("where the kubeconfig's token leaked; the consoles:%n%s", hunt.consoles())
        .isEmpty();
  }

  private FiredrillJar.Run podDelete(
      String id, Path out, StubHttpServer prometheus, Path kubeconfig) throws Exception {
    Path file = out.resolve(id + ".yaml");
    Files.writeString(
        file,
        """
        id: %s
        title: The kubeconfig's token does not leak
        prometheus: {url: %s, timeout: 5s}
        steady_state:
          interval: 1s
          slis:
            - name: error_ratio
              query: 'sum(rate(errors_total[1m]))'
              max: 0.02
        hypothesis:
          recovery: 10s
        kubernetes:
          context: mock
        method:
          duration: 3s
          faults:
            - kind: pod-delete
              namespace: shop
              selector:
                labels: {app: web}
              mode: one
              interval: 1m
              ttl: 3m
        abort:
          rules: [{sli: error_ratio, above: 0.5}]
        blast_radius:
          traffic_share: 34%%
          max_duration: 5m
          namespaces: [shop]
          max_percent: 34%%
          max_pods: 1
        """
            .formatted(id, prometheus.url("")));
    return FiredrillJar.run(
        dir,
        LIMIT,
        Map.of("KUBECONFIG", kubeconfig.toString(), "HOME", dir.toString()),
        "run",
        file.toString(),
        "--journal",
        out.resolve(id + ".json").toString(),
        "--history",
        out.resolve("history.sqlite").toString(),
        "--verbose");
  }

  private FiredrillJar.Run drill(
      String id,
      Path out,
      Backends backends,
      Map<String, LeakHunt.Form> forms,
      String fault,
      String history,
      Map<String, String> env)
      throws Exception {
    Path file = out.resolve(id + ".yaml");
    Files.writeString(
        file,
        """
        id: %s
        title: No credential from the environment leaks
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
          bearer_token_env: FD_RECEIVER_TOKEN
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
            # silent, and so held, and a row in the history
            - alert: CheckoutDown
              expect: silent
              within: 2s
        method:
          duration: 2s
          faults:
        %s
        abort:
          rules: [{sli: error_ratio, above: 0.5}]
        blast_radius:
          traffic_share: 5%%
          max_duration: 15m
        """
            .formatted(
                id,
                backends.prometheus.url(""),
                forms.get("prometheus").yaml(variable("prometheus", forms)),
                backends.alertmanager.url(""),
                forms.get("alertmanager").yaml(variable("alertmanager", forms)),
                Loopback.freePort(),
                backends.grafana.url(""),
                forms.get("grafana").yaml(variable("grafana", forms)),
                fault.indent(4)));
    Map<String, String> environment = new LinkedHashMap<>(env);
    environment.putIfAbsent("FD_RECEIVER_TOKEN", hunt.secret("receiver"));
    return FiredrillJar.run(
        dir,
        LIMIT,
        environment,
        "run",
        file.toString(),
        "--journal",
        out.resolve(id + ".json").toString(),
        "--history",
        history,
        "--verbose");
  }

  /** The variable a backend's credential is read from: FD_PROMETHEUS_TOKEN, ..._PASSWORD. */
  private static String variable(String backend, Map<String, LeakHunt.Form> forms) {
    return "FD_"
        + backend.toUpperCase(java.util.Locale.ROOT)
        + (forms.get(backend) == LeakHunt.Form.BEARER_ENV ? "_TOKEN" : "_PASSWORD");
  }

  /**
   * Prometheus, Alertmanager and Grafana stubs: healthy, or each echoing the credential it was sent
   * (Prometheus in a warning of a healthy answer, so that the drill goes on to inject; the others
   * in error pages).
   */
  private static final class Backends implements AutoCloseable {
    final StubHttpServer prometheus = StubHttpServer.start();
    final StubHttpServer alertmanager = StubHttpServer.start();
    final StubHttpServer grafana = StubHttpServer.start();

    void healthy() {
      prometheus.respondJson(200, LeakHunt.HEALTHY);
      alertmanager.respondJson(200, "[]");
      grafana.respondJson(200, "{\"id\":1,\"message\":\"Annotation added\"}");
    }

    void echoing(LeakHunt hunt) {
      prometheus.respondJson(200, withWarning(hunt.secret("prometheus")));
      // Alertmanager answers the reads before injection, then echoes: the drill still injects.
      alertmanager
          .respondJson(200, "[]")
          .after(
              2,
              stub -> stub.respond(503, "text/html", LeakHunt.echo(hunt.secret("alertmanager"))));
      grafana.respond(401, "text/html", LeakHunt.echo(hunt.secret("grafana")));
    }

    /** Each backend got its credential in the form given, so it was read. */
    void assertReceived(Map<String, LeakHunt.Form> forms, LeakHunt hunt) {
      hunt.assertReceived(
          Map.of("prometheus", prometheus, "alertmanager", alertmanager, "grafana", grafana),
          forms);
    }

    @Override
    public void close() {
      prometheus.close();
      alertmanager.close();
      grafana.close();
    }
  }

  /** A healthy answer whose warning echoes the password (Prometheus's API passes warnings on). */
  private static String withWarning(String password) {
    return LeakHunt.HEALTHY.substring(0, LeakHunt.HEALTHY.length() - 1)
        + ",\"warnings\":[\"basic auth firedrill:"
        + password
        + " is deprecated\"]}";
  }
}
