package dev.firedrill.embedded.alertmanager;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.embedded.alertmanager.api.ApiServer;
import dev.firedrill.embedded.alertmanager.config.AlertmanagerConfig;
import dev.firedrill.embedded.drive.VirtualDriver;
import dev.firedrill.net.HostPort;
import dev.firedrill.time.VirtualClock;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP API's shapes and Alertmanager's POST semantics, on a virtual clock so every time is
 * exact.
 */
class ApiTest {

  private static final Instant T0 = Instant.parse("2026-01-01T12:00:00Z");
  private static final String CONFIG =
      """
      global:
        resolve_timeout: 2m
      route:
        receiver: default
        routes:
          - receiver: team-payments
            matchers: ['team="payments"']
            continue: true
          - receiver: team-all
            matchers: ['team=~".+"']
      receivers:
        - name: default
        - name: team-payments
        - name: team-all
      """;

  private final VirtualClock clock = new VirtualClock(T0);
  private final RecordingSender sender = new RecordingSender(clock);
  private final VirtualAlertmanager am;
  private final ApiServer api;
  private final HttpClient http = HttpClient.newHttpClient();

  ApiTest() throws Exception {
    am =
        VirtualAlertmanager.start(
            AlertmanagerConfig.parse("alertmanager.yml", CONFIG),
            VirtualDriver.on(clock),
            sender,
            "http://127.0.0.1:9093",
            line -> {});
    api = ApiServer.start(am, HostPort.loopbackAnyPort());
  }

  @AfterEach
  void close() {
    api.close();
  }

  private HttpResponse<String> post(String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(api.url().resolve("/api/v2/alerts"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String pathAndQuery) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(api.url() + pathAndQuery)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String q(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  @Test
  void aPostedAlertIsListedWithItsReceiversStatusAndTimes() throws Exception {
    HttpResponse<String> posted =
        post(
            """
        [{"labels":{"alertname":"PayErrors","team":"payments","empty":""},"annotations":{"summary":"5xx"},
          "generatorURL":"http://127.0.0.1:9090/graph","startsAt":"2026-01-01T11:59:00.123456Z"}]""");
    assertThat(posted.statusCode()).isEqualTo(200);
    clock.advance(Duration.ofSeconds(1));

    HttpResponse<String> listed = get("/api/v2/alerts");
    assertThat(listed.statusCode()).isEqualTo(200);
    assertThat(listed.headers().firstValue("Content-Type")).hasValue("application/json");
    // endsAt is the post's time plus resolve_timeout; the empty label is dropped; times in
    // milliseconds.
    assertThat(listed.body())
        .isEqualTo(
            "[{\"annotations\":{\"summary\":\"5xx\"},\"endsAt\":\"2026-01-01T12:02:00.000Z\","
                + "\"fingerprint\":\""
                + fingerprint()
                + "\",\"receivers\":[{\"name\":\"team-payments\"},{\"name\":\"team-all\"}],"
                + "\"startsAt\":\"2026-01-01T11:59:00.123Z\",\"status\":{\"inhibitedBy\":[],\"silencedBy\":[],\"state\":\"active\"},"
                + "\"updatedAt\":\"2026-01-01T12:00:00.000Z\",\"generatorURL\":\"http://127.0.0.1:9090/graph\","
                + "\"labels\":{\"alertname\":\"PayErrors\",\"team\":\"payments\"}}]\n");
  }

  private static String fingerprint() {
    java.util.TreeMap<String, String> labels = new java.util.TreeMap<>();
    labels.put("alertname", "PayErrors");
    labels.put("team", "payments");
    return dev.firedrill.embedded.alertmanager.alert.LabelSets.hex(
        dev.firedrill.embedded.alertmanager.alert.LabelSets.fingerprint(labels));
  }

  @Test
  void withoutStartsAtAnAlertStartsAtItsEndsAtOrNow() throws Exception {
    post(
        """
        [{"labels":{"alertname":"OnlyEnd"},"endsAt":"2026-01-01T12:05:00Z"},{"labels":{"alertname":"Neither"}}]""");
    String body = get("/api/v2/alerts").body();
    assertThat(body)
        .contains(
            "\"endsAt\":\"2026-01-01T12:05:00.000Z\"", "\"startsAt\":\"2026-01-01T12:05:00.000Z\"")
        .contains(
            "\"endsAt\":\"2026-01-01T12:02:00.000Z\"", "\"startsAt\":\"2026-01-01T12:00:00.000Z\"");
  }

  @Test
  void invalidAlertsAreNamedInA400AndTheValidOnesKept() throws Exception {
    HttpResponse<String> response =
        post(
            """
        [{"labels":{"alertname":"Good"}},{"labels":{}},{"labels":{"x":"y"},"startsAt":"2026-01-01T12:00:00Z",
          "endsAt":"2026-01-01T11:00:00Z"},{"labels":{"1a":"b"}},{"labels":{"a":"b"},"annotations":{"1x":"y"}}]""");
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body())
        .isEqualTo(
            "\"at least one label pair required; start time must be before end time; "
                + "invalid label set: invalid name \\\"1a\\\"; invalid annotations: invalid name \\\"1x\\\"\"\n");
    assertThat(am.alerts()).extracting(a -> a.labels().get("alertname")).containsExactly("Good");
  }

  @Test
  void aBodyThatIsNotAListOfAlertsIsRefusedWhole() throws Exception {
    HttpResponse<String> missingLabels = post("[{\"labels\":{\"a\":\"b\"}},{}]");
    assertThat(missingLabels.statusCode()).isEqualTo(422);
    assertThat(missingLabels.body())
        .isEqualTo("{\"code\":602,\"message\":\"1.labels in body is required\"}\n");
    HttpResponse<String> object = post("{\"labels\":{\"a\":\"b\"}}");
    assertThat(object.statusCode()).isEqualTo(400);
    assertThat(object.body())
        .isEqualTo(
            "{\"code\":400,\"message\":\"parsing alerts body from \\\"\\\" failed, "
                + "because expected a JSON array of alerts\"}\n");
    HttpResponse<String> badTime = post("[{\"labels\":{\"a\":\"b\"},\"startsAt\":\"garbage\"}]");
    assertThat(badTime.statusCode()).isEqualTo(400);
    assertThat(badTime.body())
        .contains("alert 0: startsAt \\\"garbage\\\" is not an RFC 3339 time");
    assertThat(am.alerts()).isEmpty();
  }

  @Test
  void getFiltersByMatchersReceiverAndActive() throws Exception {
    post(
        """
        [{"labels":{"alertname":"Pay","team":"payments"}},{"labels":{"alertname":"Shop","team":"checkout"}},
         {"labels":{"alertname":"Stray"}}]""");
    assertThat(get("/api/v2/alerts?filter=" + q("team=\"payments\"")).body())
        .contains("\"Pay\"")
        .doesNotContain("\"Shop\"", "\"Stray\"");
    assertThat(get("/api/v2/alerts?filter=" + q("team!=\"\"")).body())
        .doesNotContain("\"Stray\"")
        .contains("\"Pay\"", "\"Shop\"");
    assertThat(
            get("/api/v2/alerts?filter="
                    + q("team=~\"pay.*\"")
                    + "&filter="
                    + q("alertname=\"Pay\""))
                .body())
        .contains("\"Pay\"")
        .doesNotContain("\"Shop\"");
    assertThat(get("/api/v2/alerts?receiver=" + q("team-all")).body())
        .contains("\"Pay\"", "\"Shop\"")
        .doesNotContain("\"Stray\"");
    assertThat(get("/api/v2/alerts?receiver=" + q("team")).body()).isEqualTo("[]\n");
    assertThat(get("/api/v2/alerts?active=false").body()).isEqualTo("[]\n");
    assertThat(get("/api/v2/alerts?silenced=false&inhibited=false&unprocessed=false").body())
        .contains("\"Pay\"", "\"Shop\"", "\"Stray\"");

    HttpResponse<String> badFilter = get("/api/v2/alerts?filter=bad");
    assertThat(badFilter.statusCode()).isEqualTo(400);
    assertThat(badFilter.body()).isEqualTo("\"bad matcher format: bad\"\n");
    HttpResponse<String> badReceiver = get("/api/v2/alerts?receiver=" + q("("));
    assertThat(badReceiver.statusCode()).isEqualTo(400);
    assertThat(badReceiver.body()).startsWith("\"failed to parse receiver param: ");
  }

  @Test
  void anAlertPastItsEndsAtIsNoLongerListed() throws Exception {
    post("[{\"labels\":{\"alertname\":\"Short\"},\"endsAt\":\"2026-01-01T12:00:30Z\"}]");
    clock.advance(Duration.ofSeconds(30));
    assertThat(get("/api/v2/alerts").body()).contains("\"Short\"");
    clock.advance(Duration.ofMillis(1));
    assertThat(get("/api/v2/alerts").body()).isEqualTo("[]\n");
  }

  @Test
  void statusReceiversAndProbesAreWellFormed() throws Exception {
    clock.advance(Duration.ofMinutes(1));
    String status = get("/api/v2/status").body();
    assertThat(status)
        .isEqualTo(
            "{\"cluster\":{\"peers\":[],\"status\":\"disabled\"},\"config\":{\"original\":"
                + new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(CONFIG)
                + "},"
                + "\"uptime\":\"2026-01-01T12:00:00.000Z\",\"versionInfo\":{\"branch\":\"\",\"buildDate\":\"\",\"buildUser\":\"\","
                + "\"goVersion\":\"\",\"revision\":\"\",\"version\":\"firedrill-embedded\"}}\n");
    assertThat(get("/api/v2/receivers").body())
        .isEqualTo(
            "[{\"name\":\"default\"},{\"name\":\"team-payments\"},{\"name\":\"team-all\"}]\n");
    assertThat(get("/-/ready").body()).isEqualTo("OK");
    assertThat(get("/-/healthy").statusCode()).isEqualTo(200);
    HttpResponse<String> delete =
        http.send(
            HttpRequest.newBuilder(api.url().resolve("/api/v2/alerts")).DELETE().build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(delete.statusCode()).isEqualTo(405);
    assertThat(delete.body())
        .isEqualTo(
            "{\"code\":405,\"message\":\"method DELETE is not allowed, but [GET,POST] are\"}\n");
    assertThat(get("/api/v1/alerts").statusCode()).isEqualTo(404);
  }
}
