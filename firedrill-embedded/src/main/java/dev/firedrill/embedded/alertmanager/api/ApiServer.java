package dev.firedrill.embedded.alertmanager.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.firedrill.embedded.alertmanager.EmbeddedAlertmanager;
import dev.firedrill.net.HostPort;
import dev.firedrill.net.HttpServers;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Alertmanager's HTTP API, the part a Prometheus and firedrill use: {@code POST} and {@code GET
 * /api/v2/alerts}, {@code GET /api/v2/status}, {@code GET /api/v2/receivers}, {@code /-/ready} and
 * {@code /-/healthy}.
 */
public final class ApiServer implements AutoCloseable {

  private static final int THREADS = 4;
  /** A bigger body is refused unread: Prometheus sends alerts in batches far below this. */
  private static final int MAX_BODY = 16 * 1024 * 1024;
  private static final long CLOSE_WAIT_SECONDS = 2;

  private final EmbeddedAlertmanager alertmanager;
  private final HttpServer server;
  private final ExecutorService threads;

  private ApiServer(EmbeddedAlertmanager alertmanager, HttpServer server, ExecutorService threads) {
    this.alertmanager = alertmanager;
    this.server = server;
    this.threads = threads;
  }

  /** Serves the API on {@code address} (port 0 for a free one). */
  public static ApiServer start(EmbeddedAlertmanager alertmanager, InetSocketAddress address) throws IOException {
    HttpServer server = HttpServers.create(address);
    AtomicInteger n = new AtomicInteger();
    ExecutorService threads = Executors.newFixedThreadPool(THREADS, r -> {
      Thread t = new Thread(r, "embedded-alertmanager-api-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    ApiServer api = new ApiServer(alertmanager, server, threads);
    server.createContext("/", api::handle);
    server.setExecutor(threads);
    server.start();
    return api;
  }

  public InetSocketAddress address() {
    return server.getAddress();
  }

  public URI url() {
    return URI.create("http://" + HostPort.format(address()));
  }

  /** Stops answering; returns within a few seconds. */
  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
    try {
      threads.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void handle(HttpExchange exchange) {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      switch (path) {
        case "/api/v2/alerts" -> alerts(exchange, method);
        case "/api/v2/status" -> onlyGet(exchange, method, this::status);
        case "/api/v2/receivers" -> onlyGet(exchange, method, this::receivers);
        case "/-/ready", "/-/healthy" -> {
          if (method.equals("GET") || method.equals("HEAD")) {
            respond(exchange, 200, "text/plain; charset=utf-8", "OK");
          } else {
            respond(exchange, 405, "text/plain; charset=utf-8", "Method Not Allowed\n");
          }
        }
        default -> respond(exchange, 404, "text/plain; charset=utf-8", "404 page not found\n");
      }
    } catch (IOException e) {
      // The client went away: nothing left to answer.
    } catch (RuntimeException e) {
      try {
        json(exchange, 500, ApiError.swagger(500, 500, e.toString()).json());
      } catch (IOException | RuntimeException again) {
        // The response had begun already: the client sees the connection close.
      }
    }
  }

  private void alerts(HttpExchange exchange, String method) throws IOException {
    Instant now = alertmanager.clock().now();
    try {
      if (method.equals("GET")) {
        AlertQuery query = AlertQuery.of(parameters(exchange.getRequestURI().getRawQuery()));
        json(exchange, 200, GettableAlerts.render(alertmanager.alerts(), alertmanager.config().routes(), query, now));
      } else if (method.equals("POST")) {
        byte[] body = exchange.getRequestBody().readNBytes(MAX_BODY + 1);
        if (body.length > MAX_BODY) {
          throw ApiError.swagger(413, 413, "the body is larger than " + MAX_BODY + " bytes");
        }
        PostableAlerts.Outcome outcome = PostableAlerts.read(body, now, alertmanager.config().resolveTimeout());
        alertmanager.put(outcome.valid());
        if (!outcome.errors().isEmpty()) {
          throw ApiError.plain(400, String.join("; ", outcome.errors()));
        }
        exchange.sendResponseHeaders(200, -1);
      } else {
        throw ApiError.swagger(405, 405, "method " + method + " is not allowed, but [GET,POST] are");
      }
    } catch (ApiError e) {
      json(exchange, e.status(), e.json());
    }
  }

  private void onlyGet(HttpExchange exchange, String method, Body body) throws IOException {
    if (method.equals("GET")) {
      json(exchange, 200, body.json());
    } else {
      json(exchange, 405, ApiError.swagger(405, 405, "method " + method + " is not allowed, but [GET] are").json());
    }
  }

  @FunctionalInterface
  private interface Body {
    String json();
  }

  private String status() {
    ObjectNode status = Json.MAPPER.createObjectNode();
    ObjectNode cluster = status.putObject("cluster");
    cluster.putArray("peers");
    cluster.put("status", "disabled");
    status.putObject("config").put("original", alertmanager.config().original());
    status.put("uptime", Json.time(alertmanager.startedAt()));
    ObjectNode version = status.putObject("versionInfo");
    version.put("branch", "");
    version.put("buildDate", "");
    version.put("buildUser", "");
    version.put("goVersion", "");
    version.put("revision", "");
    version.put("version", "firedrill-embedded");
    return write(status);
  }

  private String receivers() {
    var list = Json.MAPPER.createArrayNode();
    alertmanager.config().receivers().keySet().forEach(name -> list.addObject().put("name", name));
    return write(list);
  }

  private static String write(Object node) {
    try {
      return Json.MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of strings cannot fail to encode", e);
    }
  }

  private static Map<String, List<String>> parameters(String rawQuery) {
    Map<String, List<String>> parameters = new LinkedHashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return parameters;
    }
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      parameters.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
    }
    return parameters;
  }

  private static void json(HttpExchange exchange, int status, String json) throws IOException {
    respond(exchange, status, "application/json", json + "\n");
  }

  private static void respond(HttpExchange exchange, int status, String contentType, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    if (exchange.getRequestMethod().equals("HEAD")) {
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
