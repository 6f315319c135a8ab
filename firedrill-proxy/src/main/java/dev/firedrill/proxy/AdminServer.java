package dev.firedrill.proxy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.firedrill.net.LoopbackHttpServer;
import dev.firedrill.net.Route;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * The admin API, shaped like Toxiproxy's: {@code /proxies}, {@code /proxies/NAME}, {@code
 * /proxies/NAME/toxics} and {@code /proxies/NAME/toxics/TOXIC}. With a token, every request needs
 * {@code Authorization: Bearer TOKEN}.
 */
final class AdminServer implements AutoCloseable {

  private static final int MAX_BODY = 64 * 1024;

  private final LoopbackHttpServer server;
  private final FaultProxy proxy;
  private final Optional<byte[]> token;

  /** Binds {@code address} and serves until {@link #close()}. */
  AdminServer(InetSocketAddress address, FaultProxy proxy, Optional<String> token)
      throws IOException {
    this.proxy = proxy;
    this.token = token.map(t -> ("Bearer " + t).getBytes(StandardCharsets.UTF_8));
    String toxics = "/proxies/" + proxy.name() + "/toxics";
    this.server =
        LoopbackHttpServer.builder("firedrill-proxy-admin")
            .address(address)
            .ignoreTrailingSlash()
            .guard(this::authorized)
            .route(
                Route.exact("/proxies")
                    .get(exchange -> json(exchange, 200, proxiesJson().toString())))
            .route(
                Route.exact("/proxies/" + proxy.name())
                    .get(exchange -> json(exchange, 200, proxyJson().toString())))
            .route(
                Route.exact(toxics)
                    .get(exchange -> json(exchange, 200, toxicsJson().toString()))
                    .post(this::add))
            .route(Route.prefix(toxics + "/").get(this::toxic).delete(this::remove))
            .notFound(this::notFound)
            .refusal(
                (exchange, allowed) ->
                    error(
                        exchange,
                        405,
                        "method "
                            + exchange.getRequestMethod()
                            + " not allowed on "
                            + exchange.getRequestURI().getPath()
                            + "; expected "
                            + String.join(" or ", allowed)))
            .failure(
                (exchange, e) ->
                    error(exchange, 500, "internal error: " + e.getClass().getSimpleName()))
            .start();
  }

  InetSocketAddress address() {
    return server.address();
  }

  private boolean authorized(HttpExchange exchange) throws IOException {
    if (token.isEmpty()) {
      return true;
    }
    String given = exchange.getRequestHeaders().getFirst("Authorization");
    if (given != null
        && MessageDigest.isEqual(token.get(), given.strip().getBytes(StandardCharsets.UTF_8))) {
      return true;
    }
    exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
    error(exchange, 401, "missing or wrong bearer token (expected Authorization: Bearer TOKEN)");
    return false;
  }

  private void notFound(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    String[] parts = path.replaceAll("/+$", "").split("/"); // "", "proxies", NAME, "toxics", TOXIC
    if (parts.length < 2 || !parts[1].equals("proxies")) {
      error(
          exchange,
          404,
          "no such path "
              + path
              + "; expected /proxies, /proxies/"
              + proxy.name()
              + "/toxics or /proxies/"
              + proxy.name()
              + "/toxics/NAME");
    } else if (!parts[2].equals(proxy.name())) {
      error(
          exchange,
          404,
          "proxy not found: "
              + parts[2]
              + " (this process serves one proxy, "
              + proxy.name()
              + ")");
    } else {
      error(exchange, 404, "no such path " + path);
    }
  }

  /**
   * The toxic {@code /proxies/NAME/toxics/TOXIC} names; null (answered 404) when the path holds
   * more.
   */
  private String toxicName(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath().replaceAll("/+$", "");
    String name = path.substring(path.lastIndexOf('/') + 1);
    if (!path.equals("/proxies/" + proxy.name() + "/toxics/" + name)) {
      error(exchange, 404, "no such path " + exchange.getRequestURI().getPath());
      return null;
    }
    return name;
  }

  private void toxic(HttpExchange exchange) throws IOException {
    String name = toxicName(exchange);
    if (name == null) {
      return;
    }
    Optional<ActiveToxic> toxic = proxy.toxics().get(name);
    if (toxic.isPresent()) {
      json(exchange, 200, AdminJson.toxic(toxic.get()).toString());
    } else {
      error(exchange, 404, "toxic not found: " + name);
    }
  }

  private void remove(HttpExchange exchange) throws IOException {
    String name = toxicName(exchange);
    if (name == null) {
      return;
    }
    if (proxy.toxics().remove(name)) {
      try (exchange) {
        exchange.sendResponseHeaders(204, -1);
      }
    } else {
      error(exchange, 404, "toxic not found: " + name);
    }
  }

  private void add(HttpExchange exchange) throws IOException {
    String body;
    try (InputStream in = exchange.getRequestBody()) {
      byte[] bytes = in.readNBytes(MAX_BODY + 1);
      if (bytes.length > MAX_BODY) {
        error(exchange, 413, "request body above " + MAX_BODY + " bytes");
        return;
      }
      body = new String(bytes, StandardCharsets.UTF_8);
    }
    Toxic toxic;
    try {
      toxic = AdminJson.readToxic(body, proxy.mode() == ProxyConfig.Mode.TCP);
    } catch (AdminJson.Invalid e) {
      error(exchange, 400, e.getMessage());
      return;
    }
    try {
      json(exchange, 200, AdminJson.toxic(proxy.toxics().add(toxic)).toString());
    } catch (ToxicTable.Conflict e) {
      error(exchange, 409, e.getMessage());
    }
  }

  private ObjectNode proxiesJson() {
    ObjectNode all = AdminJson.MAPPER.createObjectNode();
    all.set(proxy.name(), proxyJson());
    return all;
  }

  private ObjectNode proxyJson() {
    ObjectNode node = AdminJson.MAPPER.createObjectNode();
    node.put("name", proxy.name());
    node.put("listen", hostPort(proxy.listenAddress()));
    node.put("upstream", proxy.upstream().toString());
    node.put("enabled", true);
    node.put("mode", proxy.mode().name().toLowerCase(java.util.Locale.ROOT));
    node.set("toxics", toxicsJson());
    return node;
  }

  private ArrayNode toxicsJson() {
    ArrayNode toxics = AdminJson.MAPPER.createArrayNode();
    proxy.toxics().active().forEach(active -> toxics.add(AdminJson.toxic(active)));
    return toxics;
  }

  static String hostPort(InetSocketAddress address) {
    return address.getAddress().getHostAddress() + ":" + address.getPort();
  }

  private static void error(HttpExchange exchange, int status, String message) throws IOException {
    json(exchange, status, AdminJson.error(status, message));
  }

  private static void json(HttpExchange exchange, int status, String body) throws IOException {
    try (exchange) {
      LoopbackHttpServer.send(exchange, status, "application/json", body);
    }
  }

  /** Stops at once; requests under way are cut. */
  @Override
  public void close() {
    server.close();
  }
}
