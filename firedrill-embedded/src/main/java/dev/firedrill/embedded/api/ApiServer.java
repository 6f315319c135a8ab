package dev.firedrill.embedded.api;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.firedrill.embedded.rules.snapshot.GroupSnapshot;
import dev.firedrill.net.HttpServers;
import dev.firedrill.promql.model.SeriesSource;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Prometheus's HTTP API over the embedded parts: the query, metadata, rule and status endpoints
 * and {@code /-/ready} and {@code /-/healthy}, with Prometheus's JSON and status codes. Requests run
 * on a fixed pool; when it and its queue are full, the accepting thread answers in their stead,
 * which slows new connections rather than dropping them.
 */
public final class ApiServer implements AutoCloseable {

  /** What the API reads. {@code rules} is asked anew per request; {@code configYaml} is the config as loaded. */
  public record Parts(QueryEngine queries, SeriesSource series, Supplier<List<GroupSnapshot>> rules,
      Supplier<String> configYaml, BuildInfo buildInfo, Clock clock) {
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
  private static final int THREADS = 4;
  private static final int QUEUE = 64;
  private static final String API = "/api/v1/";
  private static final Logger LOG = Logger.getLogger(ApiServer.class.getName());

  private final HttpServer server;
  private final ThreadPoolExecutor executor;
  private final QueryApi queryApi;
  private final SeriesApi seriesApi;
  private final RulesApi rulesApi;
  private final Parts parts;

  private ApiServer(HttpServer server, ThreadPoolExecutor executor, Parts parts) {
    this.server = server;
    this.executor = executor;
    this.parts = parts;
    this.queryApi = new QueryApi(parts.queries(), parts.clock());
    this.seriesApi = new SeriesApi(parts.queries(), parts.series());
    this.rulesApi = new RulesApi(parts.rules());
  }

  /** Binds {@code address} (port 0 for any free port) and serves until {@link #close()}. */
  public static ApiServer start(InetSocketAddress address, Parts parts) throws IOException {
    HttpServer server = HttpServers.create(address);
    AtomicInteger count = new AtomicInteger();
    ThreadPoolExecutor executor = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(QUEUE), runnable -> {
          Thread thread = new Thread(runnable, "firedrill-prometheus-api-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        }, new ThreadPoolExecutor.CallerRunsPolicy());
    ApiServer api = new ApiServer(server, executor, parts);
    server.createContext("/", api::handle);
    server.setExecutor(executor);
    server.start();
    return api;
  }

  public InetSocketAddress address() {
    return server.getAddress();
  }

  /** {@code http://host:port}, the base URL clients are given. */
  public URI url() {
    InetSocketAddress address = address();
    String host = address.getAddress().getHostAddress();
    return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort());
  }

  /** Stops accepting, gives running requests a second, then abandons them. */
  @Override
  public void close() {
    server.stop(1);
    executor.shutdownNow();
    try {
      if (!executor.awaitTermination(2, TimeUnit.SECONDS)) {
        LOG.warning("Prometheus API: requests still running 2 s after close were abandoned");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getRawPath();
      String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
      switch (path) {
        case "/-/ready" -> text(exchange, method, "Prometheus Server is Ready.\n");
        case "/-/healthy" -> text(exchange, method, "Prometheus Server is Healthy.\n");
        default -> {
          if (path.startsWith(API)) {
            api(exchange, method, path.substring(API.length()));
          } else {
            plain(exchange, 404, "404 page not found\n");
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // The client is gone or the answer could not be written; nothing is left to tell it.
      LOG.log(Level.FINE, "Prometheus API: request not answered", e);
    }
  }

  private void api(HttpExchange exchange, String method, String endpoint) throws IOException {
    boolean get = method.equals("GET");
    boolean getOrPost = get || method.equals("POST");
    Endpoint answer = switch (endpoint) {
      case "query" -> getOrPost ? queryApi::query : null;
      case "query_range" -> getOrPost ? queryApi::queryRange : null;
      case "series" -> getOrPost ? seriesApi::series : null;
      case "labels" -> getOrPost ? seriesApi::labelNames : null;
      case "alerts" -> get ? (form, json) -> rulesApi.alerts(json) : null;
      case "rules" -> get ? rulesApi::rules : null;
      case "status/config" -> get ? (form, json) -> json.beginObject().name("yaml")
          .string(parts.configYaml().get()).endObject() : null;
      case "status/buildinfo" -> get ? (form, json) -> buildInfo(json) : null;
      default -> labelValues(endpoint, get);
    };
    if (answer == null) {
      boolean known = switch (endpoint) {
        case "query", "query_range", "series", "labels", "alerts", "rules", "status/config", "status/buildinfo" -> true;
        default -> endpoint.startsWith("label/") && endpoint.endsWith("/values");
      };
      plain(exchange, known ? 405 : 404, known ? "Method Not Allowed\n" : "404 page not found\n");
      return;
    }
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
      json = error(ApiError.Type.INTERNAL, e.getMessage() == null ? e.toString() : e.getMessage());
      status = ApiError.Type.INTERNAL.status;
    }
    send(exchange, status, "application/json", json.toString());
  }

  @FunctionalInterface
  private interface Endpoint {
    void write(Form form, Json json);
  }

  /** {@code label/<name>/values}, or null. */
  private Endpoint labelValues(String endpoint, boolean get) {
    if (!get || !endpoint.startsWith("label/") || !endpoint.endsWith("/values")) {
      return null;
    }
    String raw = endpoint.substring("label/".length(), endpoint.length() - "/values".length());
    if (raw.isEmpty() || raw.contains("/")) {
      return null;
    }
    String name = java.net.URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
    return (form, json) -> seriesApi.labelValues(name, form, json);
  }

  private void buildInfo(Json json) {
    BuildInfo info = parts.buildInfo();
    json.beginObject().name("version").string(info.version()).name("revision").string(info.revision())
        .name("branch").string(info.branch()).name("buildUser").string(info.buildUser())
        .name("buildDate").string(info.buildDate()).name("goVersion").string(info.goVersion()).endObject();
  }

  private static Json error(ApiError.Type type, String message) {
    return new Json().beginObject().name("status").string("error").name("errorType").string(type.apiName)
        .name("error").string(message).endObject();
  }

  /** A form-encoded POST body, as Go's {@code ParseForm} reads it; any other body is not a form. */
  private static String formBody(HttpExchange exchange) throws IOException {
    String type = exchange.getRequestHeaders().getFirst("Content-Type");
    if (!exchange.getRequestMethod().equalsIgnoreCase("POST") || type == null
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

  private static void text(HttpExchange exchange, String method, String body) throws IOException {
    if (method.equals("GET") || method.equals("HEAD")) {
      plain(exchange, 200, method.equals("HEAD") ? null : body);
    } else {
      plain(exchange, 405, "Method Not Allowed\n");
    }
  }

  private static void plain(HttpExchange exchange, int status, String body) throws IOException {
    send(exchange, status, "text/plain; charset=utf-8", body);
  }

  private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    if (body == null) {
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
