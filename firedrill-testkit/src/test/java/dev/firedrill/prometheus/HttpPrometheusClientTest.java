package dev.firedrill.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.testing.StubHttpServer;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The client's logic against a stub server on 127.0.0.1. */
class HttpPrometheusClientTest {

  private static final String TOKEN = "s3cret-token";

  private StubHttpServer stub;
  private String server;

  @BeforeEach
  void startStub() {
    stub = StubHttpServer.start();
    server = "http://127.0.0.1:" + stub.port();
  }

  @AfterEach
  void stopStub() {
    stub.close();
  }

  private HttpPrometheusClient client() {
    return new HttpPrometheusClient(stub.url(""), Duration.ofSeconds(5), Optional.empty());
  }

  private HttpPrometheusClient clientWithToken() {
    return new HttpPrometheusClient(stub.url(""), Duration.ofSeconds(5), Optional.of(TOKEN));
  }

  @Test
  void postsTheQueryFormEncodedWithTheTimeout() throws Exception {
    stub.respondJson(
        200, "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}");

    client().query("sum(rate(x{code=\"500\"}[5m])) / 2");

    StubHttpServer.Request request = stub.lastRequest();
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo("/api/v1/query");
    assertThat(request.headers())
        .containsEntry("content-type", "application/x-www-form-urlencoded");
    assertThat(request.headers()).doesNotContainKey("authorization");
    assertThat(request.body())
        .isEqualTo("query=sum%28rate%28x%7Bcode%3D%22500%22%7D%5B5m%5D%29%29+%2F+2&timeout=5000ms");
  }

  @Test
  void queryAtAGivenTimeSendsTheTimeInUnixSeconds() throws Exception {
    stub.respondJson(
        200,
        "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[1700000000.123,\"0.25\"]}}");

    QueryResult result = client().query("up", Instant.parse("2023-11-14T22:13:20.123Z"));

    assertThat(result)
        .isEqualTo(new QueryResult.Scalar(Instant.parse("2023-11-14T22:13:20.123Z"), 0.25));
    assertThat(stub.lastRequest().path()).isEqualTo("/api/v1/query");
    assertThat(stub.lastRequest().body()).isEqualTo("query=up&time=1700000000.123&timeout=5000ms");

    client().query("up", Instant.parse("2023-11-14T22:13:20Z"));
    assertThat(stub.lastRequest().body()).isEqualTo("query=up&time=1700000000&timeout=5000ms");
    client().query("up", Instant.parse("2023-11-14T22:13:20.000000001Z"));
    assertThat(stub.lastRequest().body())
        .isEqualTo("query=up&time=1700000000.000000001&timeout=5000ms");
    assertThat(HttpPrometheusClient.unixSeconds(Instant.parse("1969-12-31T23:59:59.5Z")))
        .isEqualTo("-0.5");
  }

  @Test
  void queryAtAGivenTimeReportsFailuresLikeAnyQuery() {
    stub.respondJson(
        400, "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"parse error\"}");
    assertThatThrownBy(() -> client().query("up(", Instant.parse("2023-11-14T22:13:20Z")))
        .isInstanceOf(PrometheusException.class)
        .hasMessageStartingWith("Prometheus at " + server + " refused query \"up(\"");
  }

  @Test
  void parsesEveryResultTypeAndSpecialValues() throws Exception {
    stub.respondJson(
        200,
        """
        {"status":"success","data":{"resultType":"vector","result":[
          {"metric":{"__name__":"up","job":"api"},"value":[1700000000.123,"1"]},
          {"metric":{},"value":[1700000000.5,"NaN"]},
          {"metric":{"a":"b"},"value":[1700000000,"+Inf"]},
          {"metric":{"a":"c"},"value":[1700000000,"-Inf"]},
          {"metric":{"a":"d"},"value":[1700000000,"-1.5e-3"]}]}}""");
    QueryResult.Vector vector = (QueryResult.Vector) client().query("v");
    assertThat(vector.samples()).hasSize(5);
    assertThat(vector.samples().get(0).labels()).isEqualTo(Map.of("__name__", "up", "job", "api"));
    assertThat(vector.samples().get(0).at()).isEqualTo(Instant.parse("2023-11-14T22:13:20.123Z"));
    assertThat(vector.samples().get(0).value()).isEqualTo(1.0);
    assertThat(vector.samples().get(1).value()).isNaN();
    assertThat(vector.samples().get(2).value()).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(vector.samples().get(3).value()).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(vector.samples().get(4).value()).isEqualTo(-0.0015);

    stub.respondJson(
        200,
        "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[1700000000.5,\"42\"]}}");
    assertThat(client().query("s"))
        .isEqualTo(new QueryResult.Scalar(Instant.parse("2023-11-14T22:13:20.500Z"), 42));

    stub.respondJson(
        200,
        "{\"status\":\"success\",\"data\":{\"resultType\":\"string\",\"result\":[1700000000,\"hi\"]}}");
    assertThat(client().query("t"))
        .isEqualTo(new QueryResult.Text(Instant.parse("2023-11-14T22:13:20Z"), "hi"));

    stub.respondJson(
        200,
        """
        {"status":"success","data":{"resultType":"matrix","result":[
          {"metric":{"code":"500"},"values":[[1700000000,"1"],[1700000001,"2"]]}]}}""");
    assertThat(client().query("m"))
        .isEqualTo(
            new QueryResult.Matrix(
                List.of(
                    new QueryResult.Series(
                        Map.of("code", "500"),
                        List.of(
                            new QueryResult.Point(Instant.parse("2023-11-14T22:13:20Z"), 1),
                            new QueryResult.Point(Instant.parse("2023-11-14T22:13:21Z"), 2))))));
  }

  @Test
  void passesWarningsOnAsOneLineEach() throws Exception {
    stub.respondJson(
        200,
        """
        {"status":"success","warnings":["partial\\nresponse"],
         "data":{"resultType":"vector","result":[]}}""");
    List<String> warnings = new ArrayList<>();
    new HttpPrometheusClient(stub.url(""), Duration.ofSeconds(5), Optional.empty(), warnings::add)
        .query("up");
    assertThat(warnings)
        .containsExactly(
            "Prometheus at " + server + " warned about query \"up\": partial response");
  }

  @Test
  void refusedQueryNamesTheQueryAndPrometheussError() {
    stub.respondJson(
        400,
        """
        {"status":"error","errorType":"bad_data","error":"invalid parameter \\"query\\": 1:11: parse error: unclosed left parenthesis"}""");
    assertThatThrownBy(() -> client().query("rate(x[5m]"))
        .isInstanceOf(PrometheusException.class)
        .hasMessage(
            "Prometheus at "
                + server
                + " refused query \"rate(x[5m]\": bad_data: 1:11: parse error: unclosed left parenthesis");
  }

  @Test
  void unavailableWithAnEnvelope() {
    stub.respondJson(
        503,
        "{\"status\":\"error\",\"errorType\":\"timeout\",\"error\":\"query timed out in expression evaluation\"}");
    assertThatThrownBy(() -> client().query("up"))
        .hasMessage(
            "Prometheus at "
                + server
                + " answered HTTP 503 to query \"up\": timeout: query timed out in expression evaluation");
  }

  @Test
  void otherStatusWithAPlainBodyIsShortenedToOneLine() {
    stub.respond(
        502, "text/html", "<html>\n  <body>Bad Gateway</body>\n</html>\n" + "x".repeat(500));
    assertThatThrownBy(() -> client().query("up"))
        .hasMessageStartingWith(
            "Prometheus at "
                + server
                + " answered HTTP 502 to query \"up\": <html> <body>Bad Gateway</body> </html> xxx")
        .hasMessageEndingWith("x...")
        .hasMessageNotContaining("\n");
  }

  @Test
  void emptyBody() {
    stub.respond(503, "text/plain", "");
    assertThatThrownBy(() -> client().query("up"))
        .hasMessage(
            "Prometheus at " + server + " answered HTTP 503 to query \"up\" with an empty body");
  }

  @Test
  void bodyThatIsNotJson() {
    stub.respond(200, "text/html", "<html>login here</html>");
    assertThatThrownBy(() -> client().query("up"))
        .hasMessage(
            "Prometheus at "
                + server
                + " answered HTTP 200 to query \"up\" with a body that is not JSON: <html>login here</html>"
                + HttpPrometheusClient.NOT_PROMETHEUS);
  }

  @Test
  void aWebServerThatIsNotPrometheusIsNamedAsSuch() {
    stub.respond(501, "text/html", "<html><p>Unsupported method ('POST')</p></html>");
    assertThatThrownBy(() -> client().query("up"))
        .hasMessageContaining("answered HTTP 501 to query \"up\"")
        .hasMessageEndingWith(
            "that is not a Prometheus API answer: check that the url is the server's base URL,"
                + " such as http://HOST:9090 (firedrill adds /api/v1/...)");
  }

  @Test
  void jsonThatIsNotAnEnvelope() {
    stub.respondJson(
        200, "{\"status\":\"success\",\"data\":{\"resultType\":\"exemplars\",\"result\":[]}}");
    assertThatThrownBy(() -> client().query("up"))
        .hasMessage(
            "Prometheus at "
                + server
                + " answered HTTP 200 to query \"up\" with an unexpected response: "
                + "\"data.resultType\" is \"exemplars\" (expected scalar, string, vector or matrix)");

    stub.respondJson(
        200,
        "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[1,\"abc\"]}}");
    assertThatThrownBy(() -> client().query("up"))
        .hasMessage(
            "Prometheus at "
                + server
                + " answered HTTP 200 to query \"up\" with an unexpected response: "
                + "a scalar has value \"abc\" (expected a number, NaN, +Inf or -Inf)");
  }

  @Test
  void serverThatNeverAnswersTimesOutAfterTheConfiguredTimeout() {
    stub.hang();
    HttpPrometheusClient client =
        new HttpPrometheusClient(stub.url(""), Duration.ofMillis(300), Optional.empty());
    long start = System.nanoTime();
    assertThatThrownBy(() -> client.query("up"))
        .hasMessage("Prometheus at " + server + ": query \"up\" timed out after 300ms");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
  }

  @Test
  void connectionRefused() {
    int port = StubHttpServer.closedPort();
    HttpPrometheusClient client =
        new HttpPrometheusClient(
            URI.create("http://127.0.0.1:" + port), Duration.ofSeconds(2), Optional.empty());
    assertThatThrownBy(() -> client.query("up"))
        .hasMessage(
            "cannot reach Prometheus at http://127.0.0.1:"
                + port
                + " (connection refused) for query \"up\"");
  }

  @Test
  void anUnresolvableHostIsAnUnknownHostNotARefusedConnection() {
    // .invalid never resolves (RFC 2606): nothing leaves the machine but a lookup that fails.
    HttpPrometheusClient client =
        new HttpPrometheusClient(
            URI.create("http://prometheus.firedrill.invalid:9090"),
            Duration.ofSeconds(5),
            Optional.empty());
    assertThatThrownBy(() -> client.query("up"))
        .hasMessage(
            "cannot reach Prometheus at http://prometheus.firedrill.invalid:9090 (the host name does not"
                + " resolve: unknown host) for query"
                + " \"up\"");
  }

  @Test
  void bearerTokenIsSentAndNeverInAMessage() throws Exception {
    stub.respondJson(
        200, "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}");
    clientWithToken().query("up");
    assertThat(stub.lastRequest().headers()).containsEntry("authorization", "Bearer " + TOKEN);

    stub.respond(401, "text/plain", "bad token " + TOKEN);
    assertThatThrownBy(() -> clientWithToken().query("up"))
        .hasMessage(
            "Prometheus at " + server + " answered HTTP 401 to query \"up\": bad token <redacted>");
    stub.respond(200, "text/plain", "echo: Bearer " + TOKEN);
    assertThatThrownBy(() -> clientWithToken().query("up")).hasMessageNotContaining(TOKEN);
    stub.respondJson(
        400, "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"" + TOKEN + "\"}");
    assertThatThrownBy(() -> clientWithToken().query("up")).hasMessageNotContaining(TOKEN);
    stub.hang();
    HttpPrometheusClient slow =
        new HttpPrometheusClient(stub.url(""), Duration.ofMillis(200), Optional.of(TOKEN));
    assertThatThrownBy(() -> slow.query("up")).hasMessageNotContaining(TOKEN);
    HttpPrometheusClient nowhere =
        new HttpPrometheusClient(
            URI.create("http://127.0.0.1:" + StubHttpServer.closedPort()),
            Duration.ofSeconds(2),
            Optional.of(TOKEN));
    assertThatThrownBy(() -> nowhere.query("up")).hasMessageNotContaining(TOKEN);
  }

  @Test
  void tokenWithALineBreakIsRefusedWithoutEchoingIt() {
    assertThatThrownBy(
            () ->
                new HttpPrometheusClient(
                    stub.url(""), Duration.ofSeconds(1), Optional.of("abc\ndef")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageNotContaining("abc");
  }

  @Test
  void urlWithUserInfoIsRefusedWithoutEchoingIt() {
    for (String url :
        List.of(
            "http://admin:hunter2@127.0.0.1:9090",
            "http://admin@127.0.0.1:9090/prom/",
            "https://admin:hunter2@prometheus.example/")) {
      assertThatThrownBy(
              () ->
                  new HttpPrometheusClient(
                      URI.create(url), Duration.ofSeconds(1), Optional.empty()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "credentials in the Prometheus URL are not allowed; use bearer_token_env or bearer_token_file");
    }
  }

  @Test
  void otherUnusableUrlsAreRefused() {
    assertThatThrownBy(
            () ->
                new HttpPrometheusClient(
                    URI.create("ftp://127.0.0.1/"), Duration.ofSeconds(1), Optional.empty()))
        .hasMessage(
            "Prometheus URL \"ftp://127.0.0.1/\" is not usable (expected http:// or https:// with a host, e.g. http://127.0.0.1:9090)");
    assertThatThrownBy(
            () ->
                new HttpPrometheusClient(
                    URI.create("http://127.0.0.1:9090"), Duration.ZERO, Optional.empty()))
        .hasMessage("Prometheus timeout PT0S is not usable (expected at least 1ms)");
  }

  @Test
  void baseUrlWithAPathPrefix() throws Exception {
    stub.respondJson(
        200, "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}");
    for (String base : List.of("/prom/", "/prom")) {
      HttpPrometheusClient client =
          new HttpPrometheusClient(stub.url(base), Duration.ofSeconds(5), Optional.empty());
      client.query("up");
      assertThat(stub.lastRequest().path()).isEqualTo("/prom/api/v1/query");
      assertThat(client.server()).isEqualTo(server + "/prom");
    }
    stub.respond(404, "text/plain", "404 page not found");
    HttpPrometheusClient client =
        new HttpPrometheusClient(stub.url("/prom/"), Duration.ofSeconds(5), Optional.empty());
    assertThatThrownBy(() -> client.query("up"))
        .hasMessage(
            "Prometheus at "
                + server
                + "/prom answered HTTP 404 to query \"up\": 404 page not found");
  }

  @Test
  void multiLineQueryIsQuotedOnOneLine() {
    stub.respondJson(422, "{\"status\":\"error\",\"errorType\":\"execution\",\"error\":\"boom\"}");
    assertThatThrownBy(() -> client().query("sum(\n  up\n)"))
        .hasMessage("Prometheus at " + server + " refused query \"sum( up )\": execution: boom");
  }

  @Test
  void interruptRestoresTheFlagAndThrows() {
    stub.hang();
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> client().query("up"))
          .isInstanceOf(PrometheusException.class)
          .hasMessage(
              "interrupted while waiting for Prometheus at " + server + " to answer query \"up\"");
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }
}
