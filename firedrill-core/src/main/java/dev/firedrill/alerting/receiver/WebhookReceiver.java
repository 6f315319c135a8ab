package dev.firedrill.alerting.receiver;

import com.sun.net.httpserver.HttpExchange;
import dev.firedrill.alerting.webhook.WebhookJson;
import dev.firedrill.net.LoopbackHttpServer;
import dev.firedrill.net.Route;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The Alertmanager webhook endpoint firedrill serves during a drill. Any path accepts {@code POST}
 * of payload version 4 (Alertmanager) or 1 (Grafana's contact-point webhook); each accepted
 * notification is recorded with the time it arrived (from the injected clock) and handed to the
 * listeners before Alertmanager gets its 200, so a journal written by a listener is never behind
 * what Alertmanager believes was delivered.
 *
 * <p>Refused requests answer a short JSON error and are recorded as {@link Rejection}s: 401 for a
 * missing or wrong token, 405 for a method other than POST, 413 for a body above the limit (never
 * read whole), 400 for a body that is not such a payload. Nothing a client sends can stop the
 * receiver. Messages never hold the token.
 */
public final class WebhookReceiver implements AutoCloseable {

  /** Rejections kept for {@link #rejections()}; {@link #rejectedCount()} counts them all. */
  static final int REJECTIONS_KEPT = 1000;

  private LoopbackHttpServer server;
  private final Clock clock;
  private final Optional<byte[]> expectedAuthorization;
  private final Optional<String> token;
  private final long maxPayloadBytes;
  private final List<Notification> notifications = new ArrayList<>();
  private final ArrayDeque<Rejection> rejections = new ArrayDeque<>();
  private final AtomicLong rejected = new AtomicLong();
  private final List<Consumer<Notification>> listeners = new CopyOnWriteArrayList<>();
  private final AtomicLong listenerFailures = new AtomicLong();

  private WebhookReceiver(ReceiverConfig config, Clock clock) {
    this.clock = clock;
    this.token = config.bearerToken();
    this.expectedAuthorization = token.map(t -> ("Bearer " + t).getBytes(StandardCharsets.UTF_8));
    this.maxPayloadBytes = config.maxPayloadBytes();
  }

  /** Binds and starts serving; fails with one line naming the address when it cannot bind. */
  public static WebhookReceiver start(ReceiverConfig config, Clock clock) {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(clock, "clock");
    WebhookReceiver receiver = new WebhookReceiver(config, clock);
    receiver.server =
        LoopbackHttpServer.builder("webhook-receiver")
            .address(config.listen())
            .maxBody((int) Math.min(Integer.MAX_VALUE - 1L, config.maxPayloadBytes()))
            .guard(receiver::authorized)
            .route(Route.prefix("/").post(receiver::handle))
            .refusal(receiver::refuse)
            .startOrThrow("webhook receiver");
    return receiver;
  }

  /** The bound address, with the actual port when port 0 was asked for. */
  public InetSocketAddress address() {
    return server.address();
  }

  /** {@code http://HOST:PORT/alerts}: the URL to put in Alertmanager's {@code webhook_configs}. */
  public URI url() {
    return server.url().resolve("/alerts");
  }

  /** The notifications accepted so far, in arrival order. */
  public List<Notification> notifications() {
    synchronized (notifications) {
      return List.copyOf(notifications);
    }
  }

  /** The last {@value #REJECTIONS_KEPT} rejected requests, oldest first. */
  public List<Rejection> rejections() {
    synchronized (rejections) {
      return List.copyOf(rejections);
    }
  }

  /** All rejected requests since start, also those no longer kept. */
  public long rejectedCount() {
    return rejected.get();
  }

  /** Listener calls that threw; the notification was recorded and acknowledged all the same. */
  public long listenerFailures() {
    return listenerFailures.get();
  }

  /**
   * Calls {@code listener} with each notification accepted from now on, on a receiver thread,
   * before the 200 goes back. It should be quick; an exception it throws is counted and ignored.
   */
  public void onNotification(Consumer<Notification> listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** Stops listening and drops requests in flight; returns within about two seconds. */
  @Override
  public void close() {
    server.close();
  }

  /** The guard: a request without the right token is rejected 401, whatever its path and method. */
  private boolean authorized(HttpExchange exchange) throws IOException {
    if (expectedAuthorization.isEmpty()) {
      return true;
    }
    String sent = exchange.getRequestHeaders().getFirst("Authorization");
    if (sent != null
        && MessageDigest.isEqual(
            sent.getBytes(StandardCharsets.UTF_8), expectedAuthorization.get())) {
      return true;
    }
    try (exchange) {
      exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
      reject(
          exchange,
          clock.now(),
          401,
          sent != null
              ? "the bearer token is wrong"
              : "the Authorization header is missing (expected a bearer token)");
    }
    return false;
  }

  private void refuse(HttpExchange exchange, List<String> allowed) throws IOException {
    try (exchange) {
      reject(
          exchange,
          clock.now(),
          405,
          "method "
              + printable(exchange.getRequestMethod(), 16)
              + " is not allowed (expected POST)");
    }
  }

  private void handle(HttpExchange exchange) {
    Instant receivedAt = clock.now();
    try (exchange) {
      String declared = exchange.getRequestHeaders().getFirst("Content-Length");
      if (declared != null) {
        long length;
        try {
          length = Long.parseLong(declared.trim());
        } catch (NumberFormatException e) {
          length = -1;
        }
        if (length > maxPayloadBytes) {
          reject(
              exchange,
              receivedAt,
              413,
              "the payload is " + length + " bytes (limit " + maxPayloadBytes + ")");
          return;
        }
      }
      byte[] body = readAtMost(exchange.getRequestBody(), maxPayloadBytes);
      if (body == null) {
        reject(
            exchange, receivedAt, 413, "the payload is larger than " + maxPayloadBytes + " bytes");
        return;
      }
      Notification notification;
      try {
        notification = new Notification(receivedAt, WebhookJson.decode(body));
      } catch (WebhookJson.Invalid e) {
        reject(exchange, receivedAt, 400, e.getMessage());
        return;
      }
      synchronized (notifications) {
        notifications.add(notification);
      }
      for (Consumer<Notification> listener : listeners) {
        try {
          listener.accept(notification);
        } catch (RuntimeException e) {
          listenerFailures.incrementAndGet();
        }
      }
      respond(exchange, 200, "{\"status\":\"ok\"}");
    } catch (IOException | RuntimeException e) {
      // The client went away or sent something the server could not read: nothing to answer.
    }
  }

  /**
   * The body, or null when it holds more than {@code limit} bytes (then the rest is left unread).
   */
  private static byte[] readAtMost(InputStream in, long limit) throws IOException {
    byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
    return bytes.length > limit ? null : bytes;
  }

  private void reject(HttpExchange exchange, Instant receivedAt, int status, String reason)
      throws IOException {
    String line = redact(reason);
    rejected.incrementAndGet();
    synchronized (rejections) {
      if (rejections.size() == REJECTIONS_KEPT) {
        rejections.removeFirst();
      }
      rejections.addLast(new Rejection(receivedAt, status, line));
    }
    if (status == 413) {
      // The rest of the body stays unread; the connection cannot be reused.
      exchange.getResponseHeaders().set("Connection", "close");
    }
    respond(exchange, status, "{\"status\":\"error\",\"error\":\"" + jsonEscape(line) + "\"}");
  }

  private String redact(String reason) {
    return token.map(t -> reason.replace(t, "<redacted>")).orElse(reason);
  }

  private static void respond(HttpExchange exchange, int status, String json) throws IOException {
    LoopbackHttpServer.send(exchange, status, "application/json", json);
  }

  private static String printable(String text, int limit) {
    String line = text.replaceAll("[^\\x21-\\x7e]", "?");
    return line.length() <= limit ? line : line.substring(0, limit) + "...";
  }

  private static String jsonEscape(String text) {
    StringBuilder out = new StringBuilder(text.length() + 8);
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
