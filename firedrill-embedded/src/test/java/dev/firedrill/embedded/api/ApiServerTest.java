package dev.firedrill.embedded.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.embedded.rules.snapshot.AlertSnapshot;
import dev.firedrill.embedded.rules.snapshot.GroupSnapshot;
import dev.firedrill.embedded.rules.snapshot.RuleSnapshot;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.eval.Value;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.time.VirtualClock;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every endpoint over HTTP with canned parts; expected bodies are what Prometheus 2.42 answers for
 * the same data, byte for byte.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ApiServerTest {

  private static final LabelSet OK =
      LabelSet.of(
          "__name__", "demo_total", "code", "200", "instance", "127.0.0.1:19111", "job", "demo");
  private static final LabelSet ERR =
      LabelSet.of(
          "__name__", "demo_total", "code", "500", "instance", "127.0.0.1:19111", "job", "demo");
  private static final LabelSet UP =
      LabelSet.of("__name__", "up", "instance", "127.0.0.1:19111", "job", "demo");
  private static final String OK_JSON =
      "{\"__name__\":\"demo_total\",\"code\":\"200\",\"instance\":\"127.0.0.1:19111\",\"job\":\"demo\"}";
  private static final String ERR_JSON =
      "{\"__name__\":\"demo_total\",\"code\":\"500\",\"instance\":\"127.0.0.1:19111\",\"job\":\"demo\"}";
  private static final String UP_JSON =
      "{\"__name__\":\"up\",\"instance\":\"127.0.0.1:19111\",\"job\":\"demo\"}";

  private final VirtualClock clock = VirtualClock.at("2026-11-29T23:48:00Z");
  private final StubEngine engine = new StubEngine();
  private final StubSeries series = new StubSeries();
  private final List<GroupSnapshot> groups = new ArrayList<>();
  private ApiServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  record Answer(int status, String contentType, String body) {}

  @BeforeEach
  void start() throws IOException {
    series.add(OK, 1_000).add(ERR, 1_000).add(UP, 1_000, 2_000);
    server =
        ApiServer.start(
            new InetSocketAddress("127.0.0.1", 0),
            new ApiServer.Parts(
                engine,
                series,
                () -> List.copyOf(groups),
                () -> "global:\n  scrape_interval: 1s\n",
                new BuildInfo("0.1.0", "abc", "main", "firedrill", "20261129-23:00:00", "java17"),
                clock));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Answer get(String pathAndQuery) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(server.url() + pathAndQuery)).GET());
  }

  private Answer post(String path, String form) throws Exception {
    return send(
        HttpRequest.newBuilder(URI.create(server.url() + path))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form)));
  }

  private Answer send(HttpRequest.Builder request) throws Exception {
    HttpResponse<String> response =
        http.send(
            request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    return new Answer(
        response.statusCode(),
        response.headers().firstValue("Content-Type").orElse(""),
        response.body());
  }

  private static Answer ok(String data) {
    return new Answer(200, "application/json", "{\"status\":\"success\",\"data\":" + data + "}");
  }

  private static Answer error(int status, String type, String message) {
    return new Answer(
        status,
        "application/json",
        "{\"status\":\"error\",\"errorType\":\"" + type + "\",\"error\":\"" + message + "\"}");
  }

  @Test
  void queryAnswersAVectorWithValuesAsPrometheusWritesThem() throws Exception {
    engine.answers(
        "demo_total",
        StubEngine.selector("demo_total"),
        new Value.Vector(
            List.of(
                new Value.Sample(OK, 1_795_996_106_310L, 5),
                new Value.Sample(ERR, 1_795_996_106_310L, 1e-7))));

    assertThat(get("/api/v1/query?query=demo_total&time=1795996106.31"))
        .isEqualTo(
            ok(
                "{\"resultType\":\"vector\",\"result\":[{\"metric\":"
                    + OK_JSON
                    + ",\"value\":[1795996106.310,\"5\"]},"
                    + "{\"metric\":"
                    + ERR_JSON
                    + ",\"value\":[1795996106.310,\"1e-07\"]}]}"));
    assertThat(engine.calls.get(0).startMs()).isEqualTo(1_795_996_106_310L);
  }

  @Test
  void queryByPostFormReadsRfc3339TimeAndTimeout() throws Exception {
    engine.answers(
        "time()", new Expr.NumberLiteral(0), new Value.Scalar(1_577_836_800_500L, 1_577_836_800.5));

    assertThat(post("/api/v1/query", "query=time%28%29&time=2020-01-01T00:00:00.5Z&timeout=1500ms"))
        .isEqualTo(ok("{\"resultType\":\"scalar\",\"result\":[1577836800.5,\"1577836800.5\"]}"));
    assertThat(engine.calls.get(0).startMs()).isEqualTo(1_577_836_800_500L);
    assertThat(engine.calls.get(0).timeout()).isEqualTo(Duration.ofMillis(1500));
  }

  @Test
  void queryWithoutTimeEvaluatesAtTheClocksNow() throws Exception {
    engine.answers(
        "\"abc\"",
        new Expr.StringLiteral("abc"),
        () -> new Value.Text(engine.calls.get(0).startMs(), "a<b>&c"));

    assertThat(get("/api/v1/query?query=%22abc%22"))
        .isEqualTo(
            ok("{\"resultType\":\"string\",\"result\":[1795996080,\"a\\u003cb\\u003e\\u0026c\"]}"));
    assertThat(engine.calls.get(0).startMs())
        .isEqualTo(Instant.parse("2026-11-29T23:48:00Z").toEpochMilli());
  }

  @Test
  void queryOfARangeSelectorAnswersAMatrixWithSpecialValues() throws Exception {
    Expr expr = new Expr.MatrixSelector(StubEngine.selector("up"), 3_000);
    engine.answers(
        "up[3s]",
        expr,
        new Value.Matrix(
            List.of(
                new Value.Series(
                    UP,
                    new long[] {1_795_996_108_304L, 1_795_996_109_000L, 1_795_996_110_004L},
                    new double[] {
                      Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY
                    }))));

    assertThat(get("/api/v1/query?query=up%5B3s%5D&time=1795996110.304"))
        .isEqualTo(
            ok(
                "{\"resultType\":\"matrix\",\"result\":[{\"metric\":"
                    + UP_JSON
                    + ",\"values\":[[1795996108.304,\"NaN\"],"
                    + "[1795996109,\"+Inf\"],[1795996110.004,\"-Inf\"]]}]}"));
  }

  @Test
  void queryErrorsAreTypedAndWordedAsPrometheusWordsThem() throws Exception {
    engine.answers(
        "boom",
        new Expr.NumberLiteral(1),
        () -> {
          throw new PromqlException(
              PromqlException.ErrorType.EXECUTION, "found duplicate series for the match group");
        });
    engine.answers(
        "slow",
        new Expr.NumberLiteral(2),
        () -> {
          throw new PromqlException(
              PromqlException.ErrorType.TIMEOUT, "query timed out in expression evaluation");
        });

    assertThat(get("/api/v1/query?query=sum(("))
        .isEqualTo(
            error(
                400,
                "bad_data",
                "invalid parameter \\\"query\\\": 1:6: parse error: unclosed left parenthesis"));
    assertThat(get("/api/v1/query?query=up&time=abc"))
        .isEqualTo(
            error(
                400,
                "bad_data",
                "invalid parameter \\\"time\\\": Invalid time value for 'time': cannot parse \\\"abc\\\" to a valid timestamp"));
    assertThat(get("/api/v1/query?query=up&timeout=abc"))
        .isEqualTo(
            error(
                400,
                "bad_data",
                "invalid parameter \\\"timeout\\\": cannot parse \\\"abc\\\" to a valid duration"));
    assertThat(get("/api/v1/query?query=boom"))
        .isEqualTo(error(422, "execution", "found duplicate series for the match group"));
    assertThat(get("/api/v1/query?query=slow"))
        .isEqualTo(error(503, "timeout", "query timed out in expression evaluation"));
  }

  @Test
  void queryRangeAnswersAMatrixAtEachStep() throws Exception {
    engine.answers(
        "1",
        new Expr.NumberLiteral(1),
        new Value.Matrix(
            List.of(
                new Value.Series(
                    LabelSet.EMPTY, new long[] {1_500, 2_500, 3_500}, new double[] {1, 1, 1}))));

    assertThat(get("/api/v1/query_range?query=1&start=1.5&end=3.5&step=1"))
        .isEqualTo(
            ok(
                "{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},\"values\":[[1.500,\"1\"],[2.500,\"1\"],[3.500,\"1\"]]}]}"));
    assertThat(get("/api/v1/query_range?query=1&start=1970-01-01T00:00:01.5Z&end=3.5&step=1m"))
        .isEqualTo(
            ok(
                "{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},\"values\":[[1.500,\"1\"],[2.500,\"1\"],[3.500,\"1\"]]}]}"));
    assertThat(engine.calls).extracting(StubEngine.Call::stepMs).containsExactly(1_000L, 60_000L);
    assertThat(engine.calls.get(0).startMs()).isEqualTo(1_500);
    assertThat(engine.calls.get(0).endMs()).isEqualTo(3_500);
  }

  @Test
  void queryRangeRefusesWhatPrometheusRefuses() throws Exception {
    engine.parses("up", StubEngine.selector("up"));

    assertThat(get("/api/v1/query_range?query=up&start=5&end=1&step=1"))
        .isEqualTo(
            error(
                400,
                "bad_data",
                "invalid parameter \\\"end\\\": end timestamp must not be before start time"));
    assertThat(get("/api/v1/query_range?query=up&start=1&end=5&step=0"))
        .isEqualTo(
            error(
                400,
                "bad_data",
                "invalid parameter \\\"step\\\": zero or negative query resolution step widths are not accepted. Try a positive integer"));
    assertThat(get("/api/v1/query_range?query=up&start=1&end=2"))
        .isEqualTo(
            error(
                400,
                "bad_data",
                "invalid parameter \\\"step\\\": cannot parse \\\"\\\" to a valid duration"));
    assertThat(get("/api/v1/query_range?query=up&start=x&end=1&step=1"))
        .isEqualTo(
            error(
                400,
                "bad_data",
                "invalid parameter \\\"start\\\": cannot parse \\\"x\\\" to a valid timestamp"));
    assertThat(get("/api/v1/query_range?query=up&start=0&end=11001&step=1"))
        .isEqualTo(
            error(
                400,
                "bad_data",
                "exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)"));
    assertThat(get("/api/v1/query_range?query=sum((&start=1&end=2&step=1"))
        .isEqualTo(error(400, "bad_data", "1:6: parse error: unclosed left parenthesis"));
    assertThat(engine.calls).isEmpty();
  }

  @Test
  void queryRangeOfElevenThousandPointsIsAllowed() throws Exception {
    engine.answers("up", StubEngine.selector("up"), new Value.Matrix(List.of()));

    assertThat(get("/api/v1/query_range?query=up&start=0&end=11000&step=1s"))
        .isEqualTo(ok("{\"resultType\":\"matrix\",\"result\":[]}"));
  }

  @Test
  void seriesMergesEveryMatchSetInLabelOrder() throws Exception {
    engine
        .parses("up", StubEngine.selector("up"))
        .parses("demo_total", StubEngine.selector("demo_total"));

    assertThat(get("/api/v1/series?match[]=up&match[]=demo_total&match[]=up"))
        .isEqualTo(ok("[" + OK_JSON + "," + ERR_JSON + "," + UP_JSON + "]"));
    assertThat(get("/api/v1/series?match[]=up&start=1.5")).isEqualTo(ok("[" + UP_JSON + "]"));
    assertThat(post("/api/v1/series", "match%5B%5D=demo_total&end=0.5")).isEqualTo(ok("[]"));
  }

  @Test
  void seriesRefusesMissingEmptyAndNonSelectorMatches() throws Exception {
    engine
        .parses(
            "{code=\"\"}",
            StubEngine.selector(null, LabelMatcher.of(LabelMatcher.Type.EQUAL, "code", "")))
        .parses("sum(x)", new Expr.NumberLiteral(1));

    assertThat(get("/api/v1/series"))
        .isEqualTo(error(400, "bad_data", "no match[] parameter provided"));
    assertThat(get("/api/v1/series?match[]=%7Bcode%3D%22%22%7D"))
        .isEqualTo(
            error(
                400,
                "bad_data",
                "invalid parameter \\\"match[]\\\": match[] must contain at least one non-empty matcher"));
    assertThat(get("/api/v1/series?match[]=sum(x)"))
        .isEqualTo(
            error(
                400,
                "bad_data",
                "invalid parameter \\\"match[]\\\": \\\"sum(x)\\\" is not a series selector (expected one such as up{job=\\\"api\\\"})"));
  }

  @Test
  void labelsListNamesOfAllOrOfTheMatchedSeries() throws Exception {
    engine.parses("up", StubEngine.selector("up"));

    assertThat(get("/api/v1/labels")).isEqualTo(ok("[\"__name__\",\"code\",\"instance\",\"job\"]"));
    assertThat(get("/api/v1/labels?match[]=up"))
        .isEqualTo(ok("[\"__name__\",\"instance\",\"job\"]"));
    assertThat(post("/api/v1/labels", "match[]=up"))
        .isEqualTo(ok("[\"__name__\",\"instance\",\"job\"]"));
  }

  @Test
  void labelValuesListSortedValuesAndRefuseABadName() throws Exception {
    engine.parses("up", StubEngine.selector("up"));

    assertThat(get("/api/v1/label/code/values")).isEqualTo(ok("[\"200\",\"500\"]"));
    assertThat(get("/api/v1/label/__name__/values")).isEqualTo(ok("[\"demo_total\",\"up\"]"));
    assertThat(get("/api/v1/label/code/values?match[]=up")).isEqualTo(ok("[]"));
    assertThat(get("/api/v1/label/nope/values")).isEqualTo(ok("[]"));
    assertThat(get("/api/v1/label/1bad/values"))
        .isEqualTo(error(400, "bad_data", "invalid label name: \\\"1bad\\\""));
  }

  @Test
  void alertsAndRulesShowStateAsPrometheusDoes() throws Exception {
    Instant activeAt = Instant.parse("2026-11-29T23:48:23.628654982Z");
    AlertSnapshot alert =
        new AlertSnapshot(
            Map.of("alertname", "DemoHigh", "code", "200", "job", "demo", "severity", "page"),
            Map.of("summary", "value 5 on 200"),
            "firing",
            Optional.of(activeAt),
            Optional.empty(),
            "5e+00");
    groups.add(
        new GroupSnapshot(
            "g1",
            "/tmp/rules.yml",
            List.of(
                new RuleSnapshot.Recording(
                    "job:demo:sum",
                    "sum by (job) (demo_total)",
                    Map.of(),
                    "ok",
                    "",
                    Optional.of(Instant.parse("2026-11-29T23:48:39.630514595Z")),
                    0.000761881),
                new RuleSnapshot.Alerting(
                    "firing",
                    "DemoHigh",
                    "demo_total > 1",
                    2,
                    0,
                    Map.of("severity", "page"),
                    Map.of("summary", "value {{ $value }} on {{ $labels.code }}"),
                    List.of(alert),
                    "ok",
                    "",
                    Optional.of(Instant.parse("2026-11-29T23:48:39.63130994Z")),
                    0.000518568),
                new RuleSnapshot.Alerting(
                    "inactive",
                    "Never",
                    "demo_total > 1e+09",
                    0,
                    0,
                    Map.of(),
                    Map.of(),
                    List.of(),
                    "err",
                    "many-to-many matching not allowed",
                    Optional.empty(),
                    0)),
            1,
            0,
            0.001756175,
            Optional.of(Instant.parse("2026-11-29T23:48:39.630498183Z"))));
    String alertJson =
        "{\"labels\":{\"alertname\":\"DemoHigh\",\"code\":\"200\",\"job\":\"demo\",\"severity\":\"page\"},"
            + "\"annotations\":{\"summary\":\"value 5 on 200\"},\"state\":\"firing\","
            + "\"activeAt\":\"2026-11-29T23:48:23.628654982Z\",\"value\":\"5e+00\"}";
    String recording =
        "{\"name\":\"job:demo:sum\",\"query\":\"sum by (job) (demo_total)\",\"health\":\"ok\","
            + "\"evaluationTime\":0.000761881,\"lastEvaluation\":\"2026-11-29T23:48:39.630514595Z\",\"type\":\"recording\"}";
    String alerting =
        "{\"state\":\"firing\",\"name\":\"DemoHigh\",\"query\":\"demo_total \\u003e 1\",\"duration\":2,"
            + "\"keepFiringFor\":0,\"labels\":{\"severity\":\"page\"},"
            + "\"annotations\":{\"summary\":\"value {{ $value }} on {{ $labels.code }}\"},\"alerts\":["
            + alertJson
            + "],"
            + "\"health\":\"ok\",\"evaluationTime\":0.000518568,\"lastEvaluation\":\"2026-11-29T23:48:39.63130994Z\","
            + "\"type\":\"alerting\"}";
    String never =
        "{\"state\":\"inactive\",\"name\":\"Never\",\"query\":\"demo_total \\u003e 1e+09\",\"duration\":0,"
            + "\"keepFiringFor\":0,\"labels\":{},\"annotations\":{},\"alerts\":[],\"health\":\"err\","
            + "\"lastError\":\"many-to-many matching not allowed\",\"evaluationTime\":0,"
            + "\"lastEvaluation\":\"0001-01-01T00:00:00Z\",\"type\":\"alerting\"}";
    String group =
        "\"interval\":1,\"limit\":0,\"evaluationTime\":0.001756175,\"lastEvaluation\":\"2026-11-29T23:48:39.630498183Z\"}";

    assertThat(get("/api/v1/alerts")).isEqualTo(ok("{\"alerts\":[" + alertJson + "]}"));
    assertThat(get("/api/v1/rules"))
        .isEqualTo(
            ok(
                "{\"groups\":[{\"name\":\"g1\",\"file\":\"/tmp/rules.yml\",\"rules\":["
                    + recording
                    + ","
                    + alerting
                    + ","
                    + never
                    + "],"
                    + group
                    + "]}"));
    assertThat(get("/api/v1/rules?type=record"))
        .isEqualTo(
            ok(
                "{\"groups\":[{\"name\":\"g1\",\"file\":\"/tmp/rules.yml\",\"rules\":["
                    + recording
                    + "],"
                    + group
                    + "]}"));
    assertThat(get("/api/v1/rules?type=ALERT"))
        .isEqualTo(
            ok(
                "{\"groups\":[{\"name\":\"g1\",\"file\":\"/tmp/rules.yml\",\"rules\":["
                    + alerting
                    + ","
                    + never
                    + "],"
                    + group
                    + "]}"));
    assertThat(get("/api/v1/rules?type=bad"))
        .isEqualTo(
            error(
                400,
                "bad_data",
                "invalid parameter \\\"type\\\": not supported value \\\"bad\\\""));
  }

  @Test
  void noRulesAreEmptyLists() throws Exception {
    assertThat(get("/api/v1/alerts")).isEqualTo(ok("{\"alerts\":[]}"));
    assertThat(get("/api/v1/rules")).isEqualTo(ok("{\"groups\":[]}"));
  }

  @Test
  void statusShowsTheConfigAsLoadedAndTheBuild() throws Exception {
    assertThat(get("/api/v1/status/config"))
        .isEqualTo(ok("{\"yaml\":\"global:\\n  scrape_interval: 1s\\n\"}"));
    assertThat(get("/api/v1/status/buildinfo"))
        .isEqualTo(
            ok(
                "{\"version\":\"0.1.0\",\"revision\":\"abc\",\"branch\":\"main\","
                    + "\"buildUser\":\"firedrill\",\"buildDate\":\"20261129-23:00:00\",\"goVersion\":\"java17\"}"));
  }

  @Test
  void readyHealthyAndUnknownPathsAnswerInPlainText() throws Exception {
    assertThat(get("/-/ready"))
        .isEqualTo(new Answer(200, "text/plain; charset=utf-8", "Prometheus Server is Ready.\n"));
    assertThat(get("/-/healthy"))
        .isEqualTo(new Answer(200, "text/plain; charset=utf-8", "Prometheus Server is Healthy.\n"));
    assertThat(get("/api/v1/nothing"))
        .isEqualTo(new Answer(404, "text/plain; charset=utf-8", "404 page not found\n"));
    assertThat(post("/api/v1/rules", ""))
        .isEqualTo(new Answer(405, "text/plain; charset=utf-8", "Method Not Allowed\n"));
  }

  @Test
  void listensOnLoopbackAndStopsAnsweringOnceClosed() throws Exception {
    URI url = server.url();
    assertThat(url.getHost()).isEqualTo("127.0.0.1");
    server.close();
    HttpRequest request =
        HttpRequest.newBuilder(url.resolve("/-/ready")).timeout(Duration.ofSeconds(5)).build();
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> http.send(request, HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(IOException.class);
  }
}
