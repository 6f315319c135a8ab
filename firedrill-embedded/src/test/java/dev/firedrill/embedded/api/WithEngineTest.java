package dev.firedrill.embedded.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.embedded.storage.MemoryStorage;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.eval.Engine;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.time.VirtualClock;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The API over the real parser, evaluator and storage: answers as Prometheus 2.42 gives them for
 * the same samples.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WithEngineTest {

  private final MemoryStorage storage = new MemoryStorage();
  private ApiServer server;

  @BeforeEach
  void start() throws Exception {
    for (int i = 0; i <= 10; i++) {
      long t = 1_000_000L + i * 15_000L;
      storage.append(
          LabelSet.of("__name__", "requests_total", "code", "200", "job", "api"), t, 10.0 * i);
      storage.append(LabelSet.of("__name__", "requests_total", "code", "500", "job", "api"), t, i);
    }
    server =
        ApiServer.start(
            new InetSocketAddress("127.0.0.1", 0),
            new ApiServer.Parts(
                // Prometheus 2's closed windows: the figures below are a v2.42's answers.
                QueryEngine.over(
                    storage, Engine.Options.defaults().withCompat(Compat.PROMETHEUS_2)),
                storage,
                List::of,
                () -> "",
                BuildInfo.firedrill(),
                VirtualClock.at("2026-11-29T00:00:00Z")));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private String get(String pathAndQuery) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.url() + pathAndQuery))
                    .timeout(Duration.ofSeconds(10))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    return response.statusCode() + " " + response.body();
  }

  @Test
  void instantQueriesEvaluateAgainstTheStorage() throws Exception {
    assertThat(
            get("/api/v1/query?query=sum%20by%20(code)%20(rate(requests_total%5B1m%5D))&time=1150"))
        .isEqualTo(
            "200 {\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
                + "{\"metric\":{\"code\":\"200\"},\"value\":[1150,\"0.6666666666666666\"]},"
                + "{\"metric\":{\"code\":\"500\"},\"value\":[1150,\"0.06666666666666667\"]}]}}");
    assertThat(get("/api/v1/query?query=requests_total%7Bcode%3D%22500%22%7D%20%3E%205&time=1150"))
        .isEqualTo(
            "200 {\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
                + "{\"metric\":{\"__name__\":\"requests_total\",\"code\":\"500\",\"job\":\"api\"},\"value\":[1150,\"10\"]}]}}");
  }

  @Test
  void rangeQueriesAnswerEachStep() throws Exception {
    assertThat(
            get(
                "/api/v1/query_range?query=requests_total%7Bcode%3D%22500%22%7D&start=1000&end=1030&step=15s"))
        .isEqualTo(
            "200 {\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":["
                + "{\"metric\":{\"__name__\":\"requests_total\",\"code\":\"500\",\"job\":\"api\"},"
                + "\"values\":[[1000,\"0\"],[1015,\"1\"],[1030,\"2\"]]}]}}");
  }

  @Test
  void parseAndTypeErrorsAreWordedAsPrometheusWordsThem() throws Exception {
    assertThat(get("/api/v1/query?query=sum(("))
        .isEqualTo(
            "400 {\"status\":\"error\",\"errorType\":\"bad_data\","
                + "\"error\":\"invalid parameter \\\"query\\\": 1:6: parse error: unclosed left parenthesis\"}");
    assertThat(get("/api/v1/query_range?query=%22a%22&start=1&end=2&step=1"))
        .isEqualTo(
            "400 {\"status\":\"error\","
                + "\"errorType\":\"bad_data\",\"error\":\"invalid expression type \\\"string\\\" for range query, must be Scalar or instant Vector\"}");
  }

  @Test
  void seriesAndLabelsReadTheStorage() throws Exception {
    assertThat(get("/api/v1/series?match[]=requests_total%7Bcode%3D~%225..%22%7D"))
        .isEqualTo(
            "200 {\"status\":\"success\","
                + "\"data\":[{\"__name__\":\"requests_total\",\"code\":\"500\",\"job\":\"api\"}]}");
    assertThat(get("/api/v1/labels"))
        .isEqualTo("200 {\"status\":\"success\",\"data\":[\"__name__\",\"code\",\"job\"]}");
    assertThat(get("/api/v1/label/code/values"))
        .isEqualTo("200 {\"status\":\"success\",\"data\":[\"200\",\"500\"]}");
  }
}
