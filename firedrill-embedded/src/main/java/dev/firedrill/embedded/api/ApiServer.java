package dev.firedrill.embedded.api;

import com.sun.net.httpserver.HttpExchange;
import dev.firedrill.embedded.rules.snapshot.GroupSnapshot;
import dev.firedrill.net.LoopbackHttpServer;
import dev.firedrill.net.Route;
import dev.firedrill.promql.model.SeriesSource;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Prometheus's HTTP API over the embedded parts: the query, metadata, rule and status endpoints and
 * {@code /-/ready} and {@code /-/healthy}, with Prometheus's JSON and status codes, on a {@link
 * LoopbackHttpServer} (a full pool answers 503). Each endpoint is listed once, in {@link
 * #routes()}: the routes are also what decides 404 and 405.
 */
public final class ApiServer implements AutoCloseable {

  /**
   * What the API reads. {@code rules} is asked anew per request; {@code configYaml} is the config
   * as loaded.
   */
  public record Parts(
      QueryEngine queries,
      SeriesSource series,
      Supplier<List<GroupSnapshot>> rules,
      Supplier<String> configYaml,
      BuildInfo buildInfo,
      Clock clock) {
    public Parts {
      Objects.requireNonNull(queries, "queries");
      Objects.requireNonNull(series, "series");
      Objects.requireNonNull(rules, "rules");
      Objects.requireNonNull(configYaml, "configYaml");
      Objects.requireNonNull(buildInfo, "buildInfo");
      Objects.requireNonNull(clock, "clock");
    }
  }

  /** Go's {@code ParseForm} limit on a form body. */
  private static final int MAX_FORM_BYTES = 10 << 20;

  private static final String API = "/api/v1/";
  private static final String LABEL = API + "label/";
  private static final String VALUES = "/values";
  private static final String TEXT = "text/plain; charset=utf-8";
  private static final Logger LOG = Logger.getLogger(ApiServer.class.getName());

  private final QueryApi queryApi;
  private final SeriesApi seriesApi;
  private final RulesApi rulesApi;
  private final Parts parts;
  private LoopbackHttpServer server;

  private ApiServer(Parts parts) {
    this.parts = parts;
    this.queryApi = new QueryApi(parts.queries(), parts.clock());
    this.seriesApi = new SeriesApi(parts.queries(), parts.series());
    this.rulesApi =
        new RulesApi(parts.rules(), seriesApi::matcherSetsOrBadData, parts.queries().compat());
  }

  /** Binds {@code address} (port 0 for any free port) and serves until {@link #close()}. */
  public static ApiServer start(InetSocketAddress address, Parts parts) throws IOException {
    ApiServer api = new ApiServer(parts);
    LoopbackHttpServer.Builder builder =
        LoopbackHttpServer.builder("firedrill-prometheus-api")
            .address(address)
            .grace(Duration.ofSeconds(1));
    api.routes().forEach(builder::route);
    api.server = builder.start();
    return api;
  }

  /** Every endpoint, once: its path, its methods and what it answers. */
  private List<Route> routes() {
    return List.of(
        Route.exact("/-/ready").get(exchange -> text(exchange, "Prometheus Server is Ready.\n")),
        Route.exact("/-/healthy")
            .get(exchange -> text(exchange, "Prometheus Server is Healthy.\n")),
        getOrPost("query", queryApi::query),
        getOrPost("query_range", queryApi::queryRange),
        getOrPost("series", seriesApi::series),
        getOrPost("labels", seriesApi::labelNames),
        get("alerts", (form, json) -> rulesApi.alerts(json)),
        get("rules", rulesApi::rules),
        get(
            "status/config",
            (form, json) ->
                json.beginObject().name("yaml").string(parts.configYaml().get()).endObject()),
        get("status/buildinfo", (form, json) -> buildInfo(json)),
        Route.prefix(LABEL).get(this::labelValues));
  }

  private Route getOrPost(String endpoint, Endpoint answer) {
    return Route.exact(API + endpoint)
        .get(exchange -> api(exchange, endpoint, answer))
        .post(exchange -> api(exchange, endpoint, answer));
  }

  private Route get(String endpoint, Endpoint answer) {
    return Route.exact(API + endpoint).get(exchange -> api(exchange, endpoint, answer));
  }

  public InetSocketAddress address() {
    return server.address();
  }

  /** {@code http://host:port}, the base URL clients are given. */
  public URI url() {
    return server.url();
  }

  /** Stops accepting, gives running requests a second, then abandons them. */
  @Override
  public void close() {
    server.close();
  }

  private void api(HttpExchange exchange, String endpoint, Endpoint answer) throws IOException {
    try (exchange) {
      Json json = new Json();
      int status;
      try {
        Form form = Form.of(exchange.getRequestURI().getRawQuery(), formBody(exchange));
        json.beginObject().name("status").string("success").name("data");
        answer.write(form, json);
        json.endObject();
        status = 200;
      } catch (ApiError e) {
        json = error(e.type, e.getMessage());
        status = e.type.status;
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "Prometheus API: " + endpoint + " failed", e);
        json =
            error(ApiError.Type.INTERNAL, e.getMessage() == null ? e.toString() : e.getMessage());
        status = ApiError.Type.INTERNAL.status;
      }
      LoopbackHttpServer.send(exchange, status, "application/json", json.toString());
    }
  }

  @FunctionalInterface
  private interface Endpoint {
    /** Writes the value of {@code data}; it may add fields of the envelope after it. */
    void write(Form form, Json json);
  }

  /** {@code label/<name>/values}; any other path under {@code label/} is not found. */
  private void labelValues(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getRawPath();
    String raw =
        path.endsWith(VALUES)
            ? path.substring(
                LABEL.length(), Math.max(LABEL.length(), path.length() - VALUES.length()))
            : "";
    if (raw.isEmpty() || raw.contains("/")) {
      try (exchange) {
        LoopbackHttpServer.send(exchange, 404, TEXT, "404 page not found\n");
      }
      return;
    }
    String name = URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
    api(
        exchange,
        "label/" + raw + "/values",
        (form, json) -> seriesApi.labelValues(name, form, json));
  }

  private void buildInfo(Json json) {
    BuildInfo info = parts.buildInfo();
    json.beginObject()
        .name("version")
        .string(info.version())
        .name("revision")
        .string(info.revision())
        .name("branch")
        .string(info.branch())
        .name("buildUser")
        .string(info.buildUser())
        .name("buildDate")
        .string(info.buildDate())
        .name("goVersion")
        .string(info.goVersion())
        .endObject();
  }

  private static Json error(ApiError.Type type, String message) {
    return new Json()
        .beginObject()
        .name("status")
        .string("error")
        .name("errorType")
        .string(type.apiName)
        .name("error")
        .string(message)
        .endObject();
  }

  /** A form-encoded POST body, as Go's {@code ParseForm} reads it; any other body is not a form. */
  private static String formBody(HttpExchange exchange) throws IOException {
    String type = exchange.getRequestHeaders().getFirst("Content-Type");
    if (!exchange.getRequestMethod().equalsIgnoreCase("POST")
        || type == null
        || !type.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
      return null;
    }
    try (InputStream in = exchange.getRequestBody()) {
      byte[] body = in.readNBytes(MAX_FORM_BYTES + 1);
      if (body.length > MAX_FORM_BYTES) {
        throw ApiError.badData("error parsing form values: http: POST too large");
      }
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private static void text(HttpExchange exchange, String body) throws IOException {
    try (exchange) {
      LoopbackHttpServer.send(exchange, 200, TEXT, body);
    }
  }
}
