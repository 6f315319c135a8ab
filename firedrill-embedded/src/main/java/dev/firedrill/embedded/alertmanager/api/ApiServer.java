package dev.firedrill.embedded.alertmanager.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.firedrill.embedded.alertmanager.EmbeddedAlertmanager;
import dev.firedrill.net.LoopbackHttpServer;
import dev.firedrill.net.Route;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Alertmanager's HTTP API, the part a Prometheus and firedrill use: {@code POST} and {@code GET
 * /api/v2/alerts}, {@code GET /api/v2/status}, {@code GET /api/v2/receivers}, {@code /-/ready} and
 * {@code /-/healthy}, on a {@link LoopbackHttpServer}.
 */
public final class ApiServer implements AutoCloseable {

  /** A bigger body is refused unread: Prometheus sends alerts in batches far below this. */
  private static final int MAX_BODY = 16 * 1024 * 1024;

  private static final String TEXT = "text/plain; charset=utf-8";

  private final EmbeddedAlertmanager alertmanager;
  private LoopbackHttpServer server;

  private ApiServer(EmbeddedAlertmanager alertmanager) {
    this.alertmanager = alertmanager;
  }

  /** Serves the API on {@code address} (port 0 for a free one). */
  public static ApiServer start(EmbeddedAlertmanager alertmanager, InetSocketAddress address)
      throws IOException {
    ApiServer api = new ApiServer(alertmanager);
    api.server =
        LoopbackHttpServer.builder("embedded-alertmanager-api")
            .address(address)
            .maxBody(MAX_BODY)
            .route(Route.exact("/api/v2/alerts").get(api::listAlerts).post(api::postAlerts))
            .route(Route.exact("/api/v2/status").get(exchange -> json(exchange, 200, api.status())))
            .route(
                Route.exact("/api/v2/receivers")
                    .get(exchange -> json(exchange, 200, api.receivers())))
            .route(Route.exact("/-/ready").get(ApiServer::ok))
            .route(Route.exact("/-/healthy").get(ApiServer::ok))
            .refusal(ApiServer::refuse)
            .failure(
                (exchange, e) ->
                    json(exchange, 500, ApiError.swagger(500, 500, e.toString()).json()))
            .start();
    return api;
  }

  public InetSocketAddress address() {
    return server.address();
  }

  public URI url() {
    return server.url();
  }

  /** Stops answering; returns within a few seconds. */
  @Override
  public void close() {
    server.close();
  }

  private void listAlerts(HttpExchange exchange) throws IOException {
    Instant now = alertmanager.clock().now();
    try {
      AlertQuery query = AlertQuery.of(parameters(exchange.getRequestURI().getRawQuery()));
      json(
          exchange,
          200,
          GettableAlerts.render(alertmanager.alerts(), alertmanager.config().routes(), query, now));
    } catch (ApiError e) {
      json(exchange, e.status(), e.json());
    }
  }

  private void postAlerts(HttpExchange exchange) throws IOException {
    Instant now = alertmanager.clock().now();
    try {
      byte[] body = exchange.getRequestBody().readNBytes(MAX_BODY + 1);
      if (body.length > MAX_BODY) {
        throw ApiError.swagger(413, 413, "the body is larger than " + MAX_BODY + " bytes");
      }
      PostableAlerts.Outcome outcome =
          PostableAlerts.read(body, now, alertmanager.config().resolveTimeout());
      alertmanager.put(outcome.valid());
      if (!outcome.errors().isEmpty()) {
        throw ApiError.plain(400, String.join("; ", outcome.errors()));
      }
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    } catch (ApiError e) {
      json(exchange, e.status(), e.json());
    }
  }

  /**
   * The API answers a wrong method in swagger's JSON; {@code /-/ready} and {@code /-/healthy} in
   * text.
   */
  private static void refuse(HttpExchange exchange, List<String> allowed) throws IOException {
    if (exchange.getRequestURI().getPath().startsWith("/api/")) {
      json(
          exchange,
          405,
          ApiError.swagger(
                  405,
                  405,
                  "method "
                      + exchange.getRequestMethod()
                      + " is not allowed, but ["
                      + String.join(",", allowed)
                      + "] are")
              .json());
    } else {
      respond(exchange, 405, TEXT, "Method Not Allowed\n");
    }
  }

  private static void ok(HttpExchange exchange) throws IOException {
    respond(exchange, 200, TEXT, "OK");
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
      String name =
          URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value =
          eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      parameters.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
    }
    return parameters;
  }

  private static void json(HttpExchange exchange, int status, String json) throws IOException {
    respond(exchange, status, "application/json", json + "\n");
  }

  private static void respond(HttpExchange exchange, int status, String contentType, String text)
      throws IOException {
    try (exchange) {
      LoopbackHttpServer.send(exchange, status, contentType, text);
    }
  }
}
