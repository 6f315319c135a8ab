package dev.firedrill.lab.service;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Small helpers over {@link HttpExchange}. */
final class Exchanges {

  private Exchanges() {}

  /** Reads and drops the request body, so the connection can be reused. */
  static void drain(HttpExchange exchange) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      in.transferTo(OutputStream.nullOutputStream());
    }
  }

  /** Sends a JSON body and closes the exchange; a client that went away is not an error here. */
  static void json(HttpExchange exchange, int status, String json) {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    try (exchange) {
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    } catch (IOException e) {
      // the client hung up (a timed-out caller, typically)
    }
  }

  static String header(HttpExchange exchange, String name) {
    return exchange.getRequestHeaders().getFirst(name);
  }

  static String quote(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
