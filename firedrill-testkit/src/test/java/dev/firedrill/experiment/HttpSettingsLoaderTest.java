package dev.firedrill.experiment;

import static dev.firedrill.testing.MinimalExperiment.load;
import static dev.firedrill.testing.MinimalExperiment.problems;
import static dev.firedrill.testing.MinimalExperiment.withoutPrometheus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.http.BasicAuth;
import dev.firedrill.http.HttpSettings;
import dev.firedrill.http.Tls;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The HTTP settings block of {@code prometheus}, {@code alertmanager} and {@code markers.grafana}:
 * what loads, and each refusal's exact line, never showing a secret. The sections are appended from
 * line 24 to {@link dev.firedrill.testing.MinimalExperiment} without its prometheus section.
 */
class HttpSettingsLoaderTest {

  @Test
  void loadsTheWholeBlockForPrometheus() {
    Experiment experiment =
        load(
            withoutPrometheus(
                """
        prometheus:
          url: https://mimir.example:8080/prometheus
          timeout: 3s
          headers: {X-Scope-OrgID: tenant-1}
          basic_auth: {username: drill, password_env: MIMIR_PASSWORD}
          tls:
            ca_file: /etc/ca.pem
            cert_file: /etc/client.pem
            key_file: /etc/client-key.pem
            server_name: mimir.internal
          rules_url: http://127.0.0.1:8880
          scrape_interval: 15s
          evaluation_interval: 30s
          query_offset: 1m
        """));

    PrometheusSource source = experiment.prometheus();
    assertThat(source.url()).isEqualTo(URI.create("https://mimir.example:8080/prometheus"));
    assertThat(source.timeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(source.http())
        .isEqualTo(
            new HttpSettings(
                Map.of("X-Scope-OrgID", "tenant-1"),
                Optional.empty(),
                Optional.of(new BasicAuth("drill", new TokenSource.FromEnv("MIMIR_PASSWORD"))),
                Optional.of(
                    new Tls(
                        Optional.of(Path.of("/etc/ca.pem")),
                        Optional.of(Path.of("/etc/client.pem")),
                        Optional.of(Path.of("/etc/client-key.pem")),
                        Optional.of("mimir.internal"),
                        false))));
    assertThat(source.rulesUrl()).contains(URI.create("http://127.0.0.1:8880"));
    assertThat(source.intervals())
        .isEqualTo(
            new PrometheusSource.Intervals(
                Duration.ofSeconds(15), Duration.ofSeconds(30), Duration.ofMinutes(1)));
    assertThat(source.http().describeAuth())
        .isEqualTo("basic auth as drill, password from env MIMIR_PASSWORD");
  }

  @Test
  void withoutTheNewKeysPrometheusKeepsItsDefaults() {
    PrometheusSource source =
        load(withoutPrometheus("prometheus:\n  url: http://127.0.0.1:9090\n")).prometheus();

    assertThat(source.http()).isEqualTo(HttpSettings.none());
    assertThat(source.rulesUrl()).isEmpty();
    assertThat(source.intervals())
        .isEqualTo(
            new PrometheusSource.Intervals(
                Duration.ofMinutes(1), Duration.ofMinutes(1), Duration.ZERO));
  }

  @Test
  void alertmanagerAndGrafanaTakeTheSameBlock() {
    Experiment experiment =
        load(
            withoutPrometheus(
                """
        prometheus:
          url: http://127.0.0.1:9090
        alertmanager:
          url: https://127.0.0.1:9093
          bearer_token_file: /run/secrets/am
          headers: {X-Scope-OrgID: tenant-1}
          tls: {insecure_skip_verify: true}
        markers:
          grafana:
            url: http://127.0.0.1:3000
            basic_auth: {username: admin, password_file: /run/secrets/grafana}
        """));

    assertThat(experiment.alertmanager().orElseThrow().http())
        .isEqualTo(
            new HttpSettings(
                Map.of("X-Scope-OrgID", "tenant-1"),
                    Optional.of(new TokenSource.FromFile(Path.of("/run/secrets/am"))),
                Optional.empty(),
                    Optional.of(
                        new Tls(
                            Optional.empty(),
                            Optional.empty(),
                            Optional.empty(),
                            Optional.empty(),
                            true))));
    assertThat(experiment.markers().grafana().orElseThrow().http().basicAuth())
        .contains(
            new BasicAuth("admin", new TokenSource.FromFile(Path.of("/run/secrets/grafana"))));
  }

  @Test
  void aHeaderThatCarriesASecretIsRefusedAndPointsToTheCredentialKeys() {
    List<String> problems =
        problems(
            withoutPrometheus(
                """
        prometheus:
          url: http://127.0.0.1:9090
          headers:
            Authorization: Basic ZHJpbGw6aHVudGVyMg==
            Cookie: session=s3cr3t
            X-Api-Key: s3cr3t-key
        """));

    String refused =
        ": secrets are refused in an experiment file, and headers are for values that are not secret,"
            + " such as X-Scope-OrgID; for credentials use bearer_token_env, bearer_token_file or basic_auth (username"
            + " with password_env or password_file)";
    assertThat(problems)
        .containsExactly(
            "exp.yaml: /prometheus/headers/Authorization" + refused + " (line 27, column 5)",
            "exp.yaml: /prometheus/headers/Cookie" + refused + " (line 28, column 5)",
            "exp.yaml: /prometheus/headers/X-Api-Key" + refused + " (line 29, column 5)");
    assertThat(String.join("\n", problems)).doesNotContain("ZHJpbGw6aHVudGVyMg", "s3cr3t");
  }

  @Test
  void headersTheClientSetsItselfOrThatAreNotOneLineAreRefused() {
    assertThat(
            problems(
                withoutPrometheus(
                    """
        alertmanager:
          url: http://127.0.0.1:9093
          headers:
            Host: other.example
            "X Tenant": a
            X-List: [a, b]
        prometheus:
          url: http://127.0.0.1:9090
        """)))
        .containsExactly(
            "exp.yaml: /alertmanager/headers/Host: firedrill's HTTP client sets Host itself; expected another header,"
                + " such as X-Scope-OrgID (line 27, column 5)",
            "exp.yaml: /alertmanager/headers/X Tenant: expected a header name of letters, digits and '-', such as"
                + " X-Scope-OrgID (line 28, column 5)",
            "exp.yaml: /alertmanager/headers/X-List: expected a header value such as tenant-1 (line 29, column 5)");
  }

  @Test
  void aPasswordInTheFileIsRefusedWithoutShowingIt() {
    List<String> problems =
        problems(
            withoutPrometheus(
                """
        prometheus:
          url: http://127.0.0.1:9090
          basic_auth:
            username: drill
            password: hunter2-pa55
        """));

    assertThat(problems)
        .containsExactly(
            "exp.yaml: /prometheus/basic_auth/password_env: missing; basic_auth needs password_env or password_file:"
                + " where the password is read from (line 26, column 3)",
            "exp.yaml: /prometheus/basic_auth/password: secrets are refused in an experiment file; use password_env or"
                + " password_file (line 28, column 5)");
    assertThat(String.join("\n", problems)).doesNotContain("hunter2");
  }

  @Test
  void aSecretWrittenWhereAVariableNameGoesIsNotEchoed() {
    List<String> problems =
        problems(
            withoutPrometheus(
                """
        prometheus:
          url: http://127.0.0.1:9090
        alertmanager:
          url: http://127.0.0.1:9093
          bearer_token_env: eyJ.s3cr3t-value
        markers:
          grafana:
            url: http://127.0.0.1:3000
            basic_auth: {username: admin, password_env: "s3cr3t pass"}
        """));

    assertThat(problems)
        .containsExactly(
            "exp.yaml: /alertmanager/bearer_token_env: expected the name of an environment variable such as AM_TOKEN,"
                + " got a string (line 28, column 3)",
            "exp.yaml: /markers/grafana/basic_auth/password_env: expected the name of an environment variable such as"
                + " GRAFANA_PASSWORD, got a string (line 32, column 35)");
  }

  @Test
  void passwordEnvAndPasswordFileExcludeEachOtherAndABearerToken() {
    assertThat(
            problems(
                withoutPrometheus(
                    """
        prometheus:
          url: http://127.0.0.1:9090
          bearer_token_env: PROM_TOKEN
          basic_auth:
            username: drill
            password_env: PROM_PASSWORD
            password_file: /run/secrets/password
        """)))
        .containsExactly(
            "exp.yaml: /prometheus/basic_auth: expected basic_auth or a bearer token (bearer_token_env,"
                + " bearer_token_file), not both (line 27, column 3)",
            "exp.yaml: /prometheus/basic_auth/password_file: expected password_env or password_file, not both"
                + " (line 30, column 5)");
  }

  @Test
  void basicAuthNeedsAUsernameWithoutAColon() {
    assertThat(
            problems(
                withoutPrometheus(
                    """
        markers:
          grafana:
            url: http://127.0.0.1:3000
            basic_auth: {username: "a:b", password_env: GRAFANA_PASSWORD}
        prometheus:
          url: http://127.0.0.1:9090
        alertmanager:
          url: http://127.0.0.1:9093
          basic_auth: {password_env: AM_PASSWORD}
        """)))
        .containsExactly(
            "exp.yaml: /markers/grafana/basic_auth/username: expected a username without ':' (basic auth separates the"
                + " password with it) (line 27, column 18)",
            "exp.yaml: /alertmanager/basic_auth/username: missing; basic_auth needs a username (line 32, column 3)");
  }

  @Test
  void tlsNeedsAnHttpsUrlAndACertificateWithItsKey() {
    assertThat(
            problems(
                withoutPrometheus(
                    """
        prometheus:
          url: http://127.0.0.1:9090
          tls:
            cert_file: /etc/client.pem
            insecure_skip_verify: "no"
            ca: /etc/ca.pem
        """)))
        .containsExactly(
            "exp.yaml: /prometheus/tls/key_file: missing; cert_file needs key_file: the client certificate's private key"
                + " (PEM) (line 26, column 3)",
            "exp.yaml: /prometheus/tls: tls applies to an https URL; expected url to start with https:// beside tls"
                + " (line 26, column 3)",
            "exp.yaml: /prometheus/tls/insecure_skip_verify: expected true or false, got a string (line 28, column 5)",
            "exp.yaml: /prometheus/tls/ca: unknown key; valid keys here: ca_file, cert_file, key_file,"
                + " server_name, insecure_skip_verify (line 29, column 5)");
  }

  @Test
  void intervalsAndRulesUrlAreChecked() {
    assertThat(
            problems(
                withoutPrometheus(
                    """
        prometheus:
          url: http://127.0.0.1:9090
          rules_url: vmalert:8880
          scrape_interval: 0s
          evaluation_interval: 15
          query_offset: soon
          evaluation_intervals: 1m
        """)))
        .containsExactly(
            "exp.yaml: /prometheus/rules_url: expected an http or https URL such as http://127.0.0.1:8880, got a string"
                + " (line 26, column 3)",
            "exp.yaml: /prometheus/scrape_interval: expected a duration greater than 0, got a string (line 27, column 3)",
            "exp.yaml: /prometheus/evaluation_interval: expected a duration such as 500ms, 30s, 5m, 1h or 30d, got a number"
                + " without a unit (line 28, column 3)",
            "exp.yaml: /prometheus/query_offset: expected a duration such as 500ms, 30s, 5m, 1h or 30d, got a string"
                + " (line 29, column 3)",
            "exp.yaml: /prometheus/evaluation_intervals: unknown key; did you mean \"evaluation_interval\"? (line 30,"
                + " column 3)");
  }

  @Test
  void utf8LabelNamesAndAnyNonEmptyAlertNameAreTaken() {
    Experiment experiment =
        load(
            withoutPrometheus(
                """
        prometheus:
          url: http://127.0.0.1:9090
        alertmanager:
          url: http://127.0.0.1:9093
        hypothesis:
          alerts:
            - alert: Checkout error-budget.burn (fast)
              within: 2m
              matchers: {"service.name": checkout, "région": eu, "http-route": /pay}
        """));

    AlertExpectation expectation = experiment.hypothesis().alerts().get(0);
    assertThat(expectation.alert()).isEqualTo("Checkout error-budget.burn (fast)");
    assertThat(expectation.matchers())
        .isEqualTo(Map.of("service.name", "checkout", "région", "eu", "http-route", "/pay"));
    // the detection table and history name it as Prometheus 3 writes a selector: UTF-8 names quoted
    assertThat(expectation.describe())
        .isEqualTo(
            "Checkout error-budget.burn (fast){\"http-route\"=\"/pay\",\"région\"=\"eu\",\"service.name\"=\"checkout\"}");
    assertThat(AlertExpectation.describe("Down", Map.of("service", "a\"b")))
        .isEqualTo("Down{service=\"a\\\"b\"}");
  }

  @Test
  void anEmptyLabelNameIsRefused() {
    assertThat(
            problems(
                withoutPrometheus(
                    """
        prometheus:
          url: http://127.0.0.1:9090
        hypothesis:
          alerts:
            - alert: Down
              within: 2m
              matchers: {"": x}
        """)))
        .containsExactly(
            "exp.yaml: /hypothesis/alerts/0/matchers/: expected a non-empty label name of valid UTF-8 text, such as"
                + " service (line 30, column 18)");
  }
}
