package dev.firedrill.alerting.receiver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.alerting.webhook.WebhookMessage;
import dev.firedrill.time.VirtualClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The receiver against hand-made requests on 127.0.0.1. */
class WebhookReceiverTest {

  private static final String TOKEN = "tok-3f9a-very-secret";
  private static final Path FIXTURE = Path.of("fixtures/alerting/webhook-v4-two-alerts.json");

  private final VirtualClock clock = VirtualClock.at("2024-05-14T09:12:05Z");
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final List<WebhookReceiver> started = new ArrayList<>();

  @AfterEach
  void close() {
    started.forEach(WebhookReceiver::close);
  }

  private WebhookReceiver start(ReceiverConfig config) {
    WebhookReceiver receiver = WebhookReceiver.start(config, clock);
    started.add(receiver);
    return receiver;
  }

  private HttpResponse<String> post(URI url, String body, Optional<String> authorization)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(url)
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    authorization.ifPresent(a -> request.header("Authorization", a));
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String fixture() throws IOException {
    return Files.readString(FIXTURE);
  }

  @Test
  void recordsEveryFieldOfARealVersion4Payload() throws Exception {
    WebhookReceiver receiver = start(ReceiverConfig.defaults());
    List<Notification> heard = new CopyOnWriteArrayList<>();
    receiver.onNotification(heard::add);

    HttpResponse<String> response = post(receiver.url(), fixture(), Optional.empty());

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(receiver.rejections()).isEmpty();
    assertThat(receiver.notifications()).hasSize(1);
    Notification n = receiver.notifications().get(0);
    assertThat(heard).containsExactly(n);
    assertThat(n.receivedAt()).isEqualTo(Instant.parse("2024-05-14T09:12:05Z"));
    WebhookMessage m = n.message();
    assertThat(m.receiver()).isEqualTo("team-payments");
    assertThat(m.status()).isEqualTo("firing");
    assertThat(m.firing()).isTrue();
    assertThat(m.groupKey())
        .isEqualTo(
            "{}/{team=\"payments\"}:{alertname=\"PaymentsHighErrorRate\", service=\"payments\"}");
    assertThat(m.groupLabels())
        .isEqualTo(Map.of("alertname", "PaymentsHighErrorRate", "service", "payments"));
    assertThat(m.truncatedAlerts()).isZero();
    assertThat(m.alerts())
        .containsExactly(
            new WebhookMessage.Alert(
                "firing",
                Map.of(
                    "alertname",
                    "PaymentsHighErrorRate",
                    "service",
                    "payments",
                    "severity",
                    "page",
                    "team",
                    "payments"),
                Map.of(
                    "dashboard",
                    "http://127.0.0.1:3000/d/payments",
                    "runbook_url",
                    "https://runbooks.example.com/payments/high-error-rate",
                    "summary",
                    "payments error ratio above 5% for 1m"),
                Instant.parse("2024-05-14T09:12:03.123456789Z"),
                Optional.empty(),
                "http://127.0.0.1:9090/graph?g0.expr=payments%3Aerror_ratio%3Arate1m+%3E+0.05&g0.tab=1",
                "3f1b2c9a8d7e6f50"),
            new WebhookMessage.Alert(
                "resolved",
                Map.of(
                    "alertname",
                    "PaymentsHighErrorRate",
                    "service",
                    "payments",
                    "severity",
                    "ticket",
                    "team",
                    "payments"),
                Map.of("summary", "payments error ratio above 1% for 10m"),
                Instant.parse("2024-05-14T09:00:00Z"),
                Optional.of(Instant.parse("2024-05-14T09:14:30.500Z")),
                "http://127.0.0.1:9090/graph?g0.expr=payments%3Aerror_ratio%3Arate1m+%3E+0.01&g0.tab=1",
                "a0b1c2d3e4f56789"));
    assertThat(m.commonLabels())
        .isEqualTo(
            Map.of(
                "alertname", "PaymentsHighErrorRate", "service", "payments", "team", "payments"));
    assertThat(m.commonAnnotations()).isEmpty();
    assertThat(m.externalUrl()).isEqualTo("http://127.0.0.1:9093");
    assertThat(m.alerts().get(0).alertname()).isEqualTo("PaymentsHighErrorRate");
  }

  @Test
  void anyPathIsTheEndpointAndReceivedAtIsTakenOnArrival() throws Exception {
    WebhookReceiver receiver = start(ReceiverConfig.defaults());
    post(receiver.url().resolve("/"), fixture(), Optional.empty());
    clock.advance(Duration.ofSeconds(7));
    post(receiver.url().resolve("/hooks/payments"), fixture(), Optional.empty());

    assertThat(receiver.notifications())
        .extracting(Notification::receivedAt)
        .containsExactly(
            Instant.parse("2024-05-14T09:12:05Z"), Instant.parse("2024-05-14T09:12:12Z"));
  }

  @Test
  void malformedPayloadsAre400RecordedAndTheServerKeepsWorking() throws Exception {
    WebhookReceiver receiver = start(ReceiverConfig.defaults());
    String valid = fixture();
    Map<String, String> cases = new java.util.LinkedHashMap<>();
    cases.put("{\"receiver\": ", "the body is not JSON (at line 1, column 14)");
    cases.put("[1, 2]", "the body is not a JSON object (expected an Alertmanager webhook payload)");
    cases.put(
        valid.replace("\"version\": \"4\",", ""),
        "\"version\" is missing (expected \"4\", Alertmanager's webhook payload version)");
    cases.put(
        valid.replace("\"version\": \"4\"", "\"version\": \"3\""),
        "\"version\" is \"3\" (expected \"4\", Alertmanager's, or \"1\", Grafana's contact-point webhook)");
    cases.put(
        valid.replace("\"receiver\": \"team-payments\",", ""),
        "\"receiver\" is missing (expected a string)");
    cases.put(
        valid.replace(
            "\"status\": \"firing\",\n  \"alerts\"", "\"status\": \"burning\",\n  \"alerts\""),
        "\"status\" is \"burning\" (expected \"firing\" or \"resolved\")");
    cases.put(
        valid.replace("\"fingerprint\": \"a0b1c2d3e4f56789\"", "\"fingerprint\": 7"),
        "\"alerts[1].fingerprint\" is 7 (expected a string)");
    cases.put(
        valid.replace(
            "\"startsAt\": \"2024-05-14T09:12:03.123456789Z\"", "\"startsAt\": \"yesterday\""),
        "\"alerts[0].startsAt\" is \"yesterday\" (expected an RFC 3339 time)");
    cases.put(
        valid.replace("\"severity\": \"page\"", "\"severity\": 1"),
        "\"alerts[0].labels.severity\" is 1 (expected a string)");
    cases.put(
        valid.replace("\"groupKey\"", "\"groupkey\""),
        "\"groupKey\" is missing (expected a string)");
    cases.put(
        "{\"version\":\"4\",\"receiver\":\"r\",\"status\":\"firing\",\"groupKey\":\"k\",\"alerts\":{}}",
        "\"alerts\" is an object (expected an array)");

    for (Map.Entry<String, String> c : cases.entrySet()) {
      HttpResponse<String> response = post(receiver.url(), c.getKey(), Optional.empty());
      assertThat(response.statusCode()).as(c.getValue()).isEqualTo(400);
      assertThat(response.headers().firstValue("Content-Type")).contains("application/json");
      assertThat(response.body())
          .isEqualTo(
              "{\"status\":\"error\",\"error\":\"" + c.getValue().replace("\"", "\\\"") + "\"}");
    }
    assertThat(receiver.rejections())
        .extracting(Rejection::reason)
        .containsExactlyElementsOf(cases.values());
    assertThat(receiver.rejections())
        .allSatisfy(
            r -> {
              assertThat(r.status()).isEqualTo(400);
              assertThat(r.receivedAt()).isEqualTo(clock.now());
            });
    assertThat(receiver.rejectedCount()).isEqualTo(cases.size());
    assertThat(receiver.notifications()).isEmpty();

    assertThat(post(receiver.url(), valid, Optional.empty()).statusCode()).isEqualTo(200);
    assertThat(receiver.notifications()).hasSize(1);
  }

  @Test
  void wrongOrMissingTokenIs401AndTheTokenIsInNoMessage() throws Exception {
    ReceiverConfig config = ReceiverConfig.defaults().withBearerToken(TOKEN);
    assertThat(config.toString()).doesNotContain(TOKEN).contains("<redacted>");
    WebhookReceiver receiver = start(config);

    HttpResponse<String> missing = post(receiver.url(), fixture(), Optional.empty());
    HttpResponse<String> wrong =
        post(receiver.url(), fixture(), Optional.of("Bearer " + TOKEN + "x"));
    HttpResponse<String> basic = post(receiver.url(), fixture(), Optional.of("Basic " + TOKEN));
    HttpResponse<String> right = post(receiver.url(), fixture(), Optional.of("Bearer " + TOKEN));

    assertThat(List.of(missing, wrong, basic))
        .allSatisfy(
            r -> {
              assertThat(r.statusCode()).isEqualTo(401);
              assertThat(r.headers().firstValue("WWW-Authenticate")).contains("Bearer");
              assertThat(r.body()).doesNotContain(TOKEN);
            });
    assertThat(right.statusCode()).isEqualTo(200);
    assertThat(receiver.rejections())
        .extracting(Rejection::status, Rejection::reason)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                401, "the Authorization header is missing (expected a bearer token)"),
            org.assertj.core.groups.Tuple.tuple(401, "the bearer token is wrong"),
            org.assertj.core.groups.Tuple.tuple(401, "the bearer token is wrong"));
    assertThat(receiver.rejections().toString()).doesNotContain(TOKEN);
    assertThat(receiver.notifications()).hasSize(1);
    assertThat(receiver.notifications().toString()).doesNotContain(TOKEN);
  }

  @Test
  void aPayloadOverTheLimitIs413WithoutBeingReadWhole() throws Exception {
    WebhookReceiver receiver = start(ReceiverConfig.defaults().withMaxPayloadBytes(4096));
    String big =
        fixture()
            .replace(
                "\"summary\": \"payments error ratio above 1% for 10m\"",
                "\"summary\": \"" + "x".repeat(5000) + "\"");

    HttpResponse<String> declared = post(receiver.url(), big, Optional.empty());
    assertThat(declared.statusCode()).isEqualTo(413);

    // Chunked, no Content-Length: the receiver stops reading past the limit.
    HttpURLConnection chunked = (HttpURLConnection) receiver.url().toURL().openConnection();
    chunked.setRequestMethod("POST");
    chunked.setDoOutput(true);
    chunked.setChunkedStreamingMode(1024);
    chunked.setConnectTimeout(5000);
    chunked.setReadTimeout(5000);
    try (OutputStream out = chunked.getOutputStream()) {
      out.write(big.getBytes(StandardCharsets.UTF_8));
    }
    assertThat(chunked.getResponseCode()).isEqualTo(413);
    chunked.disconnect();

    // A client that declares 10 GB and sends nothing more gets its answer at once.
    try (Socket socket =
        new Socket(InetAddress.getLoopbackAddress(), receiver.address().getPort())) {
      socket.setSoTimeout(5000);
      socket
          .getOutputStream()
          .write(
              ("POST /alerts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      + "Content-Length: 10000000000\r\n\r\n{")
                  .getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      String head = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
      assertThat(head).isEqualTo("HTTP/1.1 413");
    }

    assertThat(receiver.rejections()).extracting(Rejection::status).containsExactly(413, 413, 413);
    assertThat(receiver.rejections())
        .extracting(Rejection::reason)
        .containsExactly(
            "the payload is " + big.getBytes(StandardCharsets.UTF_8).length + " bytes (limit 4096)",
            "the payload is larger than 4096 bytes",
            "the payload is 10000000000 bytes (limit 4096)");
    assertThat(post(receiver.url(), fixture(), Optional.empty()).statusCode()).isEqualTo(200);
  }

  @Test
  void onlyPostIsAccepted() throws Exception {
    WebhookReceiver receiver = start(ReceiverConfig.defaults());
    HttpResponse<String> get =
        http.send(
            HttpRequest.newBuilder(receiver.url()).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(get.statusCode()).isEqualTo(405);
    assertThat(receiver.rejections())
        .extracting(Rejection::reason)
        .containsExactly("method GET is not allowed (expected POST)");
  }

  @Test
  void bindsLoopbackByDefaultAndNamesTheAddressWhenItCannotBind() {
    WebhookReceiver receiver = start(ReceiverConfig.defaults());
    assertThat(receiver.address().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
    assertThat(receiver.address().getPort()).isPositive();
    assertThat(receiver.url())
        .isEqualTo(URI.create("http://127.0.0.1:" + receiver.address().getPort() + "/alerts"));

    String taken = "127.0.0.1:" + receiver.address().getPort();
    assertThatThrownBy(() -> start(ReceiverConfig.defaults().withListen(taken)))
        .hasMessageStartingWith("webhook receiver cannot listen on " + taken + ": ");
  }

  @Test
  void aListenerThatThrowsDoesNotFailTheDelivery() throws Exception {
    WebhookReceiver receiver = start(ReceiverConfig.defaults());
    receiver.onNotification(
        n -> {
          throw new IllegalStateException("journal full");
        });
    assertThat(post(receiver.url(), fixture(), Optional.empty()).statusCode()).isEqualTo(200);
    assertThat(receiver.notifications()).hasSize(1);
    assertThat(receiver.listenerFailures()).isEqualTo(1);
  }

  @Test
  void closeReturnsPromptlyWithARequestInFlight() throws Exception {
    WebhookReceiver receiver = start(ReceiverConfig.defaults());
    // A client that sends headers and half a body, then stalls.
    try (Socket socket =
        new Socket(InetAddress.getLoopbackAddress(), receiver.address().getPort())) {
      socket
          .getOutputStream()
          .write(
              ("POST /alerts HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
                  .getBytes(StandardCharsets.US_ASCII));
      Thread.sleep(200);
      long start = System.nanoTime();
      receiver.close();
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }
    receiver.close();
  }
}
