package dev.firedrill.lab.proxy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A test upstream on 127.0.0.1: {@code /echo} answers what it got (method, path, query, headers,
 * body) as JSON; {@code /bytes?n=N} answers N bytes; {@code /ok} answers "ok".
 */
final class Upstream implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  static {
    // Without it the JDK server's header and body segments meet Nagle and delayed ACKs: +40 ms.
    // Read once per JVM, so a test class that started a JDK server earlier may already have fixed it.
    System.setProperty("sun.net.httpserver.nodelay", "true");
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(32);

  Upstream() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
    server.setExecutor(executor);
    server.createContext("/echo", this::echo);
    server.createContext("/bytes", exchange -> {
      int n = Integer.parseInt(exchange.getRequestURI().getQuery().substring(2));
      byte[] body = new byte[n];
      Arrays.fill(body, (byte) 'x');
      send(exchange, 200, body);
    });
    server.createContext("/ok", exchange -> send(exchange, 200, "ok".getBytes(StandardCharsets.UTF_8)));
    server.start();
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  InetSocketAddress address() {
    return server.getAddress();
  }

  private void echo(HttpExchange exchange) throws IOException {
    ObjectNode node = JSON.createObjectNode();
    node.put("method", exchange.getRequestMethod());
    node.put("path", exchange.getRequestURI().getRawPath());
    node.put("query", exchange.getRequestURI().getRawQuery());
    ObjectNode headers = node.putObject("headers");
    for (Map.Entry<String, List<String>> header : exchange.getRequestHeaders().entrySet()) {
      headers.put(header.getKey().toLowerCase(java.util.Locale.ROOT), String.join(",", header.getValue()));
    }
    node.put("body", new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.getResponseHeaders().set("X-Upstream", "yes");
    send(exchange, 200, node.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
    try (exchange) {
      exchange.getRequestBody().readAllBytes();
      exchange.sendResponseHeaders(status, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
