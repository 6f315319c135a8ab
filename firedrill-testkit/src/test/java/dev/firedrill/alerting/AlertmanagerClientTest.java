package dev.firedrill.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.testing.StubHttpServer;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The client against a stub with Alertmanager 0.25 and 0.27+ shapes. */
class AlertmanagerClientTest {

  private static final String TOKEN = "am-s3cret";

  // 0.27 adds status.mutedBy; unknown fields are ignored.
  private static final String ALERTS =
      """
      [{"annotations":{"summary":"s","runbook_url":"https://r"},
        "endsAt":"2024-05-14T09:16:03.123Z","fingerprint":"5d2a6b6f0e9c1a2b",
        "receivers":[{"name":"team-payments"},{"name":"audit"}],
        "startsAt":"2024-05-14T09:12:03.123Z",
        "status":{"inhibitedBy":[],"silencedBy":["c5b2"],"mutedBy":[],"state":"suppressed"},
        "updatedAt":"2024-05-14T11:12:05.001+02:00",
        "generatorURL":"http://127.0.0.1:9090/graph?g0.expr=x",
        "labels":{"alertname":"PaymentsDown","team":"payments"}}]
      """;

  private StubHttpServer stub;

  @BeforeEach
  void start() {
    stub = StubHttpServer.start();
  }

  @AfterEach
  void stop() {
    stub.close();
  }

  @Test
  void readsAlertsWithReceiversAndState() throws Exception {
    stub.respondJson(200, ALERTS);
    AlertmanagerClient client =
        new AlertmanagerClient(stub.url("/am/"), Duration.ofSeconds(5), Optional.of(TOKEN));

    assertThat(client.alerts())
        .containsExactly(
            new AlertmanagerAlert(
                Map.of("alertname", "PaymentsDown", "team", "payments"),
                Map.of("summary", "s", "runbook_url", "https://r"),
                Instant.parse("2024-05-14T09:12:03.123Z"),
                Instant.parse("2024-05-14T09:16:03.123Z"),
                Instant.parse("2024-05-14T09:12:05.001Z"),
                "5d2a6b6f0e9c1a2b",
                "suppressed",
                java.util.List.of("team-payments", "audit"),
                java.util.List.of("c5b2"),
                java.util.List.of(),
                "http://127.0.0.1:9090/graph?g0.expr=x"));
    assertThat(stub.lastRequest().method()).isEqualTo("GET");
    assertThat(stub.lastRequest().path()).isEqualTo("/am/api/v2/alerts");
    assertThat(stub.lastRequest().headers()).containsEntry("authorization", "Bearer " + TOKEN);
  }

  @Test
  void failuresAreOneLineNamingServerAndRequestWithoutTheToken() {
    String server = "http://127.0.0.1:" + stub.port();
    AlertmanagerClient client =
        new AlertmanagerClient(URI.create(server), Duration.ofSeconds(5), Optional.of(TOKEN));

    stub.respond(500, "text/plain", "boom\n" + TOKEN + "\n");
    assertThatThrownBy(client::alerts)
        .isInstanceOf(AlertmanagerException.class)
        .hasMessage(
            "Alertmanager at "
                + server
                + " answered HTTP 500 to GET /api/v2/alerts: boom <redacted>");

    stub.respondJson(200, "[{\"labels\":{}}]");
    assertThatThrownBy(client::alerts)
        .hasMessage(
            "Alertmanager at "
                + server
                + " answered HTTP 200 to GET /api/v2/alerts with an unexpected response: \"[0].startsAt\" is missing (expected a string)");

    stub.respondJson(200, "<html>");
    assertThatThrownBy(client::alerts)
        .hasMessage(
            "Alertmanager at "
                + server
                + " answered HTTP 200 to GET /api/v2/alerts with a body that is not JSON: <html>"
                + AlertmanagerClient.NOT_ALERTMANAGER);

    stub.respond(404, "text/html", "<!DOCTYPE HTML><p>File not found.</p>");
    assertThatThrownBy(client::alerts)
        .hasMessageEndingWith(
            "that is not an Alertmanager API answer: check that the url is Alertmanager's base URL,"
                + " such as http://HOST:9093 (firedrill adds /api/v2/...)");

    int closed = StubHttpServer.closedPort();
    AlertmanagerClient down =
        new AlertmanagerClient(
            URI.create("http://127.0.0.1:" + closed), Duration.ofSeconds(2), Optional.empty());
    assertThatThrownBy(down::alerts)
        .hasMessage(
            "cannot reach Alertmanager at http://127.0.0.1:"
                + closed
                + " (connection refused) for GET /api/v2/alerts");

    // .invalid never resolves (RFC 2606): not a refused connection, which would send the reader
    // looking for a process that is not listening instead of at the url's host name.
    AlertmanagerClient unresolvable =
        new AlertmanagerClient(
            URI.create("http://alertmanager.firedrill.invalid:9093"),
            Duration.ofSeconds(2),
            Optional.empty());
    assertThatThrownBy(unresolvable::alerts)
        .hasMessageStartingWith(
            "cannot reach Alertmanager at http://alertmanager.firedrill.invalid:9093 (the host name"
                + " does not resolve: unknown host");

    stub.hang();
    AlertmanagerClient slow =
        new AlertmanagerClient(URI.create(server), Duration.ofMillis(300), Optional.of(TOKEN));
    assertThatThrownBy(slow::alerts)
        .hasMessage("Alertmanager at " + server + ": GET /api/v2/alerts timed out after 300ms");
  }

  @Test
  void refusesCredentialsInTheUrl() {
    assertThatThrownBy(
            () ->
                new AlertmanagerClient(
                    URI.create("http://u:p@127.0.0.1:9093"),
                    Duration.ofSeconds(1),
                    Optional.empty()))
        .hasMessage("credentials in the Alertmanager URL are not allowed; use a bearer token");
  }
}
