package dev.firedrill.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP settings through the commands a user runs: basic auth from a password file and a tenant
 * header reach the server; the password, and the header that carries it, never reach the console,
 * an error or the journal, even when the server echoes them back.
 */
class HttpSettingsCliTest {

  @TempDir Path dir;
  private WireMockServer server;
  private final String password = "pa55-s3cr3t-" + System.nanoTime();
  private String basic;

  @BeforeEach
  void start() {
    server = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());
    server.start();
    basic =
        Base64.getEncoder().encodeToString(("drill:" + password).getBytes(StandardCharsets.UTF_8));
  }

  @AfterEach
  void stop() {
    server.stop();
  }

  private Path experiment(String id) throws Exception {
    Path passwordFile = dir.resolve("password");
    Files.writeString(passwordFile, password + "\n");
    return Files.writeString(
        dir.resolve(id + ".yaml"),
        """
        id: %s
        title: Basic auth and a tenant header through the commands
        prometheus:
          url: http://127.0.0.1:%d/prometheus
          timeout: 2s
          headers: {X-Scope-OrgID: tenant-1}
          basic_auth: {username: drill, password_file: %s}
          scrape_interval: 15s
        steady_state:
          interval: 1s
          slis:
            - name: error_ratio
              query: up
              max: 0.02
        hypothesis:
          alerts:
            - alert: CheckoutErrors
              within: 1m
        method:
          duration: 2s
          faults:
            - kind: cpu-burn
              workers: 1
              ttl: 1m
        abort:
          rules:
            - sli: error_ratio
              above: 0.5
        blast_radius:
          traffic_share: 0.05
          max_duration: 15m
        """
            .formatted(id, server.port(), passwordFile));
  }

  @Test
  void aRefusingServerThatEchoesTheCredentialsNeverGetsThemPrinted() throws Exception {
    // a proxy that echoes what it refused: the password and the header come back in the body
    server.stubFor(
        WireMock.any(anyUrl())
            .willReturn(
                aResponse()
                    .withStatus(401)
                    .withBody("bad credentials: Basic " + basic + " (" + password + ")")));
    Path file = experiment("echoed-auth");
    Path journal = dir.resolve("echoed-auth.json");

    CliRun measure = CliRun.of("measure", file.toString());
    CliRun run = CliRun.of("run", file.toString(), "--journal", journal.toString());

    server.verify(
        postRequestedFor(urlPathEqualTo("/prometheus/api/v1/query"))
            .withHeader("X-Scope-OrgID", equalTo("tenant-1"))
            .withHeader("Authorization", equalTo("Basic " + basic)));
    assertThat(measure.out()).contains("answered HTTP 401", "<redacted>");
    String journalText = Files.readString(journal);
    assertThat(journalText)
        .contains(
            "\"prometheus_auth\" : \"basic auth as drill, password from file "
                + dir.resolve("password")
                + "\"",
            "\"prometheus_headers\" : [ \"X-Scope-OrgID\" ]");
    for (String text : List.of(measure.out(), measure.err(), run.out(), run.err(), journalText)) {
      assertThat(text).doesNotContain(password).doesNotContain(basic);
    }
  }

  @Test
  void planSaysWhereTheIntervalsComeFromWhenTheServerHasNoConfig() throws Exception {
    server.stubFor(
        get(anyUrl())
            .atPriority(10)
            .willReturn(aResponse().withStatus(404).withBody("404 page not found")));
    server.stubFor(
        get(urlEqualTo("/prometheus/api/v1/rules"))
            .atPriority(1)
            .willReturn(
                aResponse()
                    .withHeader("Content-Type", "application/json")
                    .withBody(
                        """
            {"status":"success","data":{"groups":[{"name":"g","file":"f","interval":15,"rules":[
              {"type":"alerting","name":"CheckoutErrors","query":"up == 0","duration":0,"labels":{},
               "annotations":{},"health":"ok","state":"inactive","alerts":[]}]}]}}
            """)));

    CliRun plan = CliRun.of("plan", experiment("plan-intervals").toString());

    assertThat(plan.out())
        .as(plan.describe())
        .contains(
            "intervals: scrape 15s, evaluation 1m, query offset 0s, from"
                + " the experiment file, the server has no /api/v1/status/config");
    assertThat(plan.out() + plan.err()).doesNotContain(password).doesNotContain(basic);
  }

  @Test
  void aRunAgainstAServerWithoutConfigSaysWhereTheIntervalsComeFromAndIsNotNotRun()
      throws Exception {
    server.stubFor(
        get(anyUrl())
            .atPriority(10)
            .willReturn(aResponse().withStatus(404).withBody("404 page not found")));
    server.stubFor(
        WireMock.post(urlPathEqualTo("/prometheus/api/v1/query"))
            .atPriority(1)
            .willReturn(
                aResponse()
                    .withHeader("Content-Type", "application/json")
                    .withBody(
                        "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[1767225600,\"0\"]}}")));
    server.stubFor(
        get(urlEqualTo("/prometheus/api/v1/rules"))
            .atPriority(1)
            .willReturn(
                aResponse()
                    .withHeader("Content-Type", "application/json")
                    .withBody(
                        """
            {"status":"success","data":{"groups":[{"name":"g","file":"f","interval":15,"rules":[
              {"type":"alerting","name":"CheckoutErrors","query":"up == 0","duration":0,"labels":{},
               "annotations":{},"health":"ok","state":"inactive","alerts":[]}]}]}}
            """)));
    server.stubFor(
        get(urlEqualTo("/prometheus/api/v1/alerts"))
            .atPriority(1)
            .willReturn(
                aResponse()
                    .withHeader("Content-Type", "application/json")
                    .withBody("{\"status\":\"success\",\"data\":{\"alerts\":[]}}")));
    Path file =
        Files.writeString(
            dir.resolve("silent.yaml"),
            Files.readString(experiment("silent"))
                .replace("      within: 1m\n", "      within: 1s\n      expect: silent\n"));
    Path journal = dir.resolve("silent.json");

    CliRun run = CliRun.of("run", file.toString(), "--journal", journal.toString());

    assertThat(run.out())
        .as(run.describe())
        .contains(
            "intervals: scrape 15s, evaluation 1m, query offset 0s, from"
                + " the experiment file, the server has no /api/v1/status/config");
    assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.HELD);
    assertThat(Files.readString(journal)).contains("detection_intervals");
    assertThat(run.out() + run.err() + Files.readString(journal))
        .doesNotContain(password)
        .doesNotContain(basic);
  }

  @Test
  void aMissingPasswordFileIsExitTwoNamingTheKeyAndThePlace() throws Exception {
    Path file = experiment("no-password");
    Files.delete(dir.resolve("password"));

    CliRun measure = CliRun.of("measure", file.toString());

    assertThat(measure.exit()).isEqualTo(2);
    assertThat(measure.err())
        .isEqualTo(
            "prometheus basic_auth password (file "
                + dir.resolve("password")
                + "): "
                + dir.resolve("password")
                + ": password file does not exist (expected a password)\n");
  }
}
