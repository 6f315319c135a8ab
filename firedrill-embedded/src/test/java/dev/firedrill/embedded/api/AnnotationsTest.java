package dev.firedrill.embedded.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.embedded.storage.MemoryStorage;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.eval.Engine;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.time.VirtualClock;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The query API's {@code warnings} and {@code infos} over the real parser and engine: in Prometheus
 * 3 mode each message as the real 3.5.3 wrote it for the same query shapes (its line and column,
 * the last position of a repeated message, ten of each and a count of the rest); none in Prometheus
 * 2 mode.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnnotationsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String NOT_A_COUNTER =
      "PromQL info: metric might not be a counter, name does not end in"
          + " _total/_sum/_count/_bucket: ";

  private final MemoryStorage storage = new MemoryStorage();
  private final List<ApiServer> servers = new ArrayList<>();

  AnnotationsTest() {
    for (int i = 0; i <= 10; i++) {
      long t = 1_000_000L + i * 15_000L;
      storage.append(LabelSet.of("__name__", "requests_total", "job", "api"), t, 10.0 * i);
      storage.append(LabelSet.of("__name__", "temperature", "job", "api"), t, 20 + i % 3);
      for (int g = 0; g < 12; g++) {
        storage.append(LabelSet.of("__name__", "g" + g, "job", "api"), t, g);
      }
    }
  }

  @AfterEach
  void stop() {
    servers.forEach(ApiServer::close);
  }

  private ApiServer server(Compat compat) throws Exception {
    ApiServer server =
        ApiServer.start(
            new InetSocketAddress("127.0.0.1", 0),
            new ApiServer.Parts(
                QueryEngine.over(storage, Engine.Options.defaults().withCompat(compat)),
                storage,
                List::of,
                () -> "",
                BuildInfo.firedrill(),
                VirtualClock.at("2026-11-29T00:00:00Z")));
    servers.add(server);
    return server;
  }

  private static JsonNode query(ApiServer server, String query) throws Exception {
    String uri =
        server.url()
            + "/api/v1/query?time=1150&query="
            + URLEncoder.encode(query, StandardCharsets.UTF_8);
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(node -> out.add(node.asText()));
    return out;
  }

  @Test
  void aRateOfWhatMayNotBeACounterIsAnInfoAtItsRangeSelector() throws Exception {
    ApiServer three = server(Compat.PROMETHEUS_3);

    JsonNode gauge = query(three, "rate(temperature[1m])");
    JsonNode counter = query(three, "rate(requests_total[1m])");
    JsonNode nothingOut = query(three, "rate(temperature[1s])");

    assertThat(strings(gauge.get("infos")))
        .containsExactly(NOT_A_COUNTER + "\"temperature\" (1:6)");
    assertThat(gauge.has("warnings")).isFalse();
    assertThat(counter.has("infos")).isFalse();
    // Prometheus notes it only for a series the rate gave a value for.
    assertThat(nothingOut.has("infos")).isFalse();
  }

  @Test
  void aRepeatedMessageIsWrittenOnceAtItsLastPositionInLinesAndColumns() throws Exception {
    JsonNode answer =
        query(server(Compat.PROMETHEUS_3), "rate(temperature[1m])\n+\n  rate(temperature[1m])");

    assertThat(strings(answer.get("infos")))
        .containsExactly(NOT_A_COUNTER + "\"temperature\" (3:8)");
  }

  @Test
  void aSubqueryIsPlacedAtItsCall() throws Exception {
    JsonNode answer = query(server(Compat.PROMETHEUS_3), "increase(temperature[1m:15s])");

    assertThat(strings(answer.get("infos")))
        .containsExactly(NOT_A_COUNTER + "\"temperature\" (1:1)");
  }

  @Test
  void tenOfEachAreWrittenAndTheRestCounted() throws Exception {
    String twelve =
        IntStream.range(0, 12)
            .mapToObj(g -> "sum(rate(g" + g + "[1m]))")
            .collect(Collectors.joining(" + "));

    List<String> infos = strings(query(server(Compat.PROMETHEUS_3), twelve).get("infos"));

    assertThat(infos).hasSize(11);
    assertThat(infos.get(10)).isEqualTo("2 more info annotations omitted");
    assertThat(infos.get(0)).isEqualTo(NOT_A_COUNTER + "\"g0\" (1:10)");
  }

  @Test
  void histogramQuantileWarnsAtTheArgumentEachWarningIsAbout() throws Exception {
    JsonNode answer = query(server(Compat.PROMETHEUS_3), "histogram_quantile(2, temperature)");

    assertThat(strings(answer.get("warnings")))
        .containsExactlyInAnyOrder(
            "PromQL warning: quantile value should be between 0 and 1, got 2 (1:20)",
            "PromQL warning: bucket label \"le\" is missing or has a malformed value of \"\" for"
                + " metric name \"temperature\" (1:23)");
    assertThat(answer.get("data").get("result")).isEmpty();
  }

  @Test
  void prometheus2WritesNeitherField() throws Exception {
    JsonNode answer =
        query(server(Compat.PROMETHEUS_2), "histogram_quantile(2, rate(temperature[1m]))");

    assertThat(answer.has("warnings")).isFalse();
    assertThat(answer.has("infos")).isFalse();
    assertThat(answer.get("status").asText()).isEqualTo("success");
  }
}
