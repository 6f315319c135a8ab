package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.kubernetes.testing.TestCluster;
import dev.firedrill.net.Loopback;
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
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The credentials a drill reads from its environment, each a recognisable value: the fault proxy's
 * admin token ({@code admin_token_env}, against a real {@code firedrill proxy --admin-token-env}),
 * the PostgreSQL history store's password (a role a real PostgreSQL makes log in with SCRAM), the
 * OTLP exporter's header ({@code OTEL_EXPORTER_OTLP_HEADERS}), Prometheus's basic-auth {@code
 * password_env} and the receiver's {@code bearer_token_env}. The packaged jar runs a drill that
 * passes and one whose proxy and collector refuse it and echo the credential each was sent, with
 * {@code --verbose}; then the reports and {@code history}. No piece of any credential shows in any
 * file written (journals, events, spans, reports, the proxy's logs), in the history's rows or on
 * any console. {@link SecretsLeakTest} does the same in-process for the tokens read from files.
 */
class EnvironmentSecretsLeakTest {

  private static final String HEALTHY =
      "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
          + "[{\"metric\":{},\"value\":[1700000000,\"0\"]}],"
          // one answer serves the queries, the rules and the alerts: the stub has no paths
          + "\"groups\":[{\"name\":\"checkout\",\"file\":\"checkout.yml\",\"interval\":1,"
          + "\"rules\":[{\"type\":\"alerting\",\"name\":\"CheckoutDown\",\"query\":\"up == 0\","
          + "\"duration\":0,\"labels\":{},\"annotations\":{},\"alerts\":[],\"health\":\"ok\","
          + "\"state\":\"inactive\"}]}],\"alerts\":[]}}";
  private static final Duration LIMIT = Duration.ofSeconds(120);

  @RegisterExtension static final RealPostgres.PerClass postgres = new RealPostgres.PerClass();

  @TempDir Path dir;

  private final Map<String, String> secrets = new LinkedHashMap<>();
  private final Map<String, String> console = new LinkedHashMap<>();

  private String secret(String name) {
    return secrets.computeIfAbsent(name, n -> "fd" + UUID.randomUUID().toString().replace("-", ""));
  }

  @Test
  void noCredentialFromTheEnvironmentShowsInAnyFileRowOrConsole() throws Exception {
    Path out = Files.createDirectory(dir.resolve("out"));
    Path logs = Files.createDirectory(dir.resolve("logs"));
    Path passwordFile = Files.writeString(dir.resolve("pg.password"), secret("postgres") + "\n");
    String history = postgres.newSchemaForPasswordRole("leaker", secret("postgres"));
    String schema = history.substring(history.indexOf("currentSchema=") + 14);
    int adminPort = Loopback.freePort();
    Map<String, String> env = new LinkedHashMap<>();
    env.put("FD_PROXY_TOKEN", secret("proxy"));
    env.put("FD_PROMETHEUS_PASSWORD", secret("prometheus"));
    env.put("FD_RECEIVER_TOKEN", secret("receiver"));
    env.put("FIREDRILL_HISTORY_USER", "leaker");
    env.put("FIREDRILL_HISTORY_PASSWORD_FILE", passwordFile.toString());
    env.put("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20" + secret("otlp"));

    try (StubHttpServer prometheus = StubHttpServer.start();
        StubHttpServer upstream = StubHttpServer.start();
        StubHttpServer collector = StubHttpServer.start();
        StubHttpServer refusingProxy = StubHttpServer.start()) {
      prometheus.respondJson(200, HEALTHY);
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

        // A drill that passes: the proxy takes the token, the collector the header, PostgreSQL the
        // password.
        FiredrillJar.Run passing =
            drill("passing", out, prometheus, "http://127.0.0.1:" + adminPort, history, env);
        assertThat(passing.exit()).as(passing.output()).isEqualTo(ExitCode.HELD);
        assertThat(collector.requests())
            .as("the header reached the collector, so it was read")
            .anySatisfy(
                r ->
                    assertThat(r.headers().get("authorization"))
                        .isEqualTo("Bearer " + secret("otlp")));
        console.put("passing", passing.output());

        // A drill whose proxy and collector refuse it, each echoing what it was sent, and whose
        // Prometheus echoes the password in a warning.
        // The proxy answers the check before injection, then refuses the toxic.
        refusingProxy
            .respondJson(200, "[]")
            .after(1, stub -> stub.respond(401, "text/html", echo(secret("proxy"))));
        prometheus.respondJson(200, withWarning(secret("prometheus")));
        collector.respond(401, "text/html", echo(secret("otlp")));
        FiredrillJar.Run failing =
            drill("failing", out, prometheus, refusingProxy.url("").toString(), history, env);
        // the toxic is refused, and so is its removal: the rollback's message is printed too
        assertThat(failing.exit()).as(failing.output()).isEqualTo(ExitCode.ROLLBACK_FAILED);
        assertThat(refusingProxy.requests())
            .as("the token reached the refusing proxy")
            .anySatisfy(
                r ->
                    assertThat(r.headers().get("authorization"))
                        .isEqualTo("Bearer " + secret("proxy")));
        console.put("failing", failing.output());
      } finally {
        FiredrillJar.stop(proxy);
      }
    }

    FiredrillJar.Run rows =
        FiredrillJar.run(dir, LIMIT, env, "history", "--history", history, "--verbose");
    assertThat(rows.exit()).as(rows.output()).isZero();
    assertThat(rows.output()).as("history lists both drills").contains("passing", "failing");
    console.put("history", rows.output());
    for (String id : List.of("passing", "failing")) {
      for (String format : List.of("md", "junit", "html")) {
        CliRun report =
            CliRun.of("report", out.resolve(id + ".json").toString(), "--format", format);
        console.put("report " + format + " of " + id + " stdout", report.out());
        console.put("report " + format + " of " + id + " stderr", report.err());
      }
    }
    String dumped = postgres.dump(schema);
    assertThat(dumped).as("the history's rows").contains("passing", "failing");
    console.put("PostgreSQL rows of " + schema, dumped);
    assertThat(Files.list(out).map(p -> p.getFileName().toString()).toList())
        .as("the journals, events, spans and reports the scan reads")
        .contains("passing.json", "failing.json");

    Map<String, List<String>> leaks = new LinkedHashMap<>();
    secrets.forEach(
        (name, value) -> {
          List<String> found = SecretScan.findings(value, List.of(out, logs), console);
          if (!found.isEmpty()) {
            leaks.put(name, found);
          }
        });
    assertThat(leaks).as("where each credential leaked; the consoles:%n%s", console).isEmpty();
  }

  @Test
  void theKubeconfigsTokenShowsInNoFileNorConsoleOfAPassingOrARefusedPodDelete() throws Exception {
    Path out = Files.createDirectory(dir.resolve("out"));
    Map<String, String> console = new LinkedHashMap<>();
    try (TestCluster cluster = new TestCluster(Duration.ofMillis(100), Duration.ofMillis(100));
        StubHttpServer prometheus = StubHttpServer.start();
        StubHttpServer refusing = StubHttpServer.start()) {
      cluster.deployment("shop", "web", 3, Map.of("app", "web"));
      prometheus.respondJson(200, HEALTHY);
      Path kubeconfig = cluster.kubeconfig(Files.createDirectory(dir.resolve("cluster")));
      FiredrillJar.Run passing = podDelete("pod-delete-passing", out, prometheus, kubeconfig);
      assertThat(passing.exit()).as(passing.output()).isEqualTo(ExitCode.HELD);
      assertThat(cluster.replacements()).as("a pod was deleted, so the token was used").isOne();
      console.put("passing", passing.output());

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
      console.put("failing", failing.output());
    }
    for (String id : List.of("pod-delete-passing", "pod-delete-failing")) {
      for (String format : List.of("md", "junit", "html")) {
        CliRun report =
            CliRun.of("report", out.resolve(id + ".json").toString(), "--format", format);
        console.put("report " + format + " of " + id + " stdout", report.out());
        console.put("report " + format + " of " + id + " stderr", report.err());
      }
    }
    assertThat(SecretScan.findings(TestCluster.TOKEN, List.of(out), console))
        .as("where the kubeconfig's token leaked; the consoles:%n%s", console)
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
      StubHttpServer prometheus,
      String proxyAdmin,
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
          basic_auth: {username: firedrill, password_env: FD_PROMETHEUS_PASSWORD}
        receiver:
          listen: 127.0.0.1:%d
          bearer_token_env: FD_RECEIVER_TOKEN
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
            - kind: http-latency
              proxy: %s
              proxy_name: payments
              share: 0.05
              latency: 50ms
              ttl: 1m
              admin_token_env: FD_PROXY_TOKEN
        abort:
          rules: [{sli: error_ratio, above: 0.5}]
        blast_radius:
          traffic_share: 5%%
          max_duration: 15m
        """
            .formatted(id, prometheus.url(""), Loopback.freePort(), proxyAdmin));
    return FiredrillJar.run(
        dir,
        LIMIT,
        env,
        "run",
        file.toString(),
        "--journal",
        out.resolve(id + ".json").toString(),
        "--history",
        history,
        "--verbose");
  }

  /** A healthy answer whose warning echoes the password (Prometheus's API passes warnings on). */
  private static String withWarning(String password) {
    return HEALTHY.substring(0, HEALTHY.length() - 1)
        + ",\"warnings\":[\"basic auth firedrill:"
        + password
        + " is deprecated\"]}";
  }

  /** An error page quoting the header it refused, and the credential alone. */
  private static String echo(String secret) {
    return "<html><body><h1>Denied</h1><p>Authorization: Bearer "
        + secret
        + "</p><p>unknown token "
        + secret
        + "</p></body></html>";
  }
}
