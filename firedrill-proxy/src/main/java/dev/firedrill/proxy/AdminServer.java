package dev.firedrill.proxy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The admin API, shaped like Toxiproxy's: {@code /proxies}, {@code /proxies/NAME},
 * {@code /proxies/NAME/toxics} and {@code /proxies/NAME/toxics/TOXIC}. With a token, every request
 * needs {@code Authorization: Bearer TOKEN}.
 */
final class AdminServer implements AutoCloseable {

  private static final int MAX_BODY = 64 * 1024;

  private final HttpServer server;
  private final ExecutorService executor;
  private final FaultProxy proxy;
  private final Optional<byte[]> token;

  AdminServer(InetSocketAddress address, FaultProxy proxy, Optional<String> token) throws IOException {
    this.proxy = proxy;
    this.token = token.map(t -> ("Bearer " + t).getBytes(StandardCharsets.UTF_8));
    this.server = HttpServer.create(address, 64);
    this.executor = Executors.newFixedThreadPool(4, r -> {
      Thread thread = new Thread(r, "firedrill-proxy-admin");
      thread.setDaemon(true);
      return thread;
    });
    server.setExecutor(executor);
    server.createContext("/", this::handle);
  }

  void start() {
    server.start();
  }

  InetSocketAddress address() {
    return server.getAddress();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!authorized(exchange)) {
        exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
        error(exchange, 401, "missing or wrong bearer token (expected Authorization: Bearer TOKEN)");
        return;
      }
      route(exchange);
    } catch (RuntimeException e) {
      error(exchange, 500, "internal error: " + e.getClass().getSimpleName());
    }
  }

  private boolean authorized(HttpExchange exchange) {
    if (token.isEmpty()) {
      return true;
    }
    String given = exchange.getRequestHeaders().getFirst("Authorization");
    return given != null && MessageDigest.isEqual(token.get(), given.strip().getBytes(StandardCharsets.UTF_8));
  }

  private void route(HttpExchange exchange) throws IOException {
    String method = exchange.getRequestMethod();
    String[] path = exchange.getRequestURI().getPath().replaceAll("/+$", "").split("/");
    // "", "proxies", NAME, "toxics", TOXIC
    if (path.length < 2 || !path[1].equals("proxies")) {
      error(exchange, 404, "no such path " + exchange.getRequestURI().getPath()
          + "; expected /proxies, /proxies/" + proxy.name() + "/toxics or /proxies/" + proxy.name() + "/toxics/NAME");
      return;
    }
    if (path.length == 2) {
      if (allow(exchange, "GET")) {
        ObjectNode all = AdminJson.MAPPER.createObjectNode();
        all.set(proxy.name(), proxyJson());
        json(exchange, 200, all.toString());
      }
      return;
    }
    if (!path[2].equals(proxy.name())) {
      error(exchange, 404, "proxy not found: " + path[2] + " (this process serves one proxy, " + proxy.name() + ")");
      return;
    }
    if (path.length == 3) {
      if (allow(exchange, "GET")) {
        json(exchange, 200, proxyJson().toString());
      }
      return;
    }
    if (!path[3].equals("toxics") || path.length > 5) {
      error(exchange, 404, "no such path " + exchange.getRequestURI().getPath());
      return;
    }
    if (path.length == 4) {
      if (method.equals("POST")) {
        add(exchange);
      } else if (allow(exchange, "GET", "POST")) {
        json(exchange, 200, toxicsJson().toString());
      }
      return;
    }
    String name = path[4];
    if (method.equals("DELETE")) {
      if (proxy.toxics().remove(name)) {
        exchange.sendResponseHeaders(204, -1);
      } else {
        error(exchange, 404, "toxic not found: " + name);
      }
    } else if (allow(exchange, "GET", "DELETE")) {
      Optional<ActiveToxic> toxic = proxy.toxics().get(name);
      if (toxic.isPresent()) {
        json(exchange, 200, AdminJson.toxic(toxic.get()).toString());
      } else {
        error(exchange, 404, "toxic not found: " + name);
      }
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

  private static boolean allow(HttpExchange exchange, String... methods) throws IOException {
    for (String method : methods) {
      if (method.equals(exchange.getRequestMethod())) {
        return true;
      }
    }
    exchange.getResponseHeaders().set("Allow", String.join(", ", methods));
    error(exchange, 405, "method " + exchange.getRequestMethod() + " not allowed on "
        + exchange.getRequestURI().getPath() + "; expected " + String.join(" or ", methods));
    return false;
  }

  private static void error(HttpExchange exchange, int status, String message) throws IOException {
    json(exchange, status, AdminJson.error(status, message));
  }

  private static void json(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** Stops at once; requests under way are cut. */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
