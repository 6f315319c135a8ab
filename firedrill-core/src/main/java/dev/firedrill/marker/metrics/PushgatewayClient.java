package dev.firedrill.marker.metrics;

import dev.firedrill.format.ControlChars;
import dev.firedrill.format.Shorten;
import dev.firedrill.http.BoundedExchange;
import dev.firedrill.http.ConnectFailures;
import dev.firedrill.http.Propagation;
import io.opentelemetry.context.Context;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * PUT and DELETE of one Pushgateway group over java.net.http, with bounded timeouts and the drill's
 * {@code traceparent} and {@code baggage}. Answers are statuses; only 2xx is success.
 */
final class PushgatewayClient {

  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(3);
  private static final int MAX_BODY = 200;

  /** A Pushgateway answers a PUT or DELETE with an empty body or one line. */
  private static final int MAX_ANSWER = 64 * 1024;

  private final PushgatewayGroup group;
  private final HttpClient http;

  PushgatewayClient(PushgatewayGroup group) {
    this.group = group;
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(CONNECT_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  PushgatewayGroup group() {
    return group;
  }

  /** Replaces the group's metrics with {@code text} (Prometheus text format 0.0.4). */
  void put(byte[] text, Context context) throws PushException, InterruptedException {
    send(
        "PUT",
        HttpRequest.newBuilder(group.url())
            .header("Content-Type", PrometheusTextFormatWriter.CONTENT_TYPE)
            .PUT(HttpRequest.BodyPublishers.ofByteArray(text)),
        context);
  }

  /** Deletes the group and every series in it. */
  void delete(Context context) throws PushException, InterruptedException {
    send("DELETE", HttpRequest.newBuilder(group.url()).DELETE(), context);
  }

  private void send(String method, HttpRequest.Builder request, Context context)
      throws PushException, InterruptedException {
    request.timeout(REQUEST_TIMEOUT);
    Propagation.inject(context, request::header);
    HttpResponse<String> response;
    try {
      // Bounded to the body's last byte: the request timeout alone ends at the headers.
      response = BoundedExchange.send(http, request.build(), REQUEST_TIMEOUT, MAX_ANSWER);
    } catch (IOException e) {
      throw new PushException(method + " " + group.url() + ": " + describe(e));
    }
    if (response.statusCode() / 100 != 2) {
      // Made safe to print before it is cut, and cut on code points: a cut at a char count split a
      // surrogate pair, and one before quoting could end inside an escape.
      String body =
          Shorten.cut(
              ControlChars.quote(response.body().strip().lines().findFirst().orElse("")), MAX_BODY);
      throw new PushException(
          method
              + " "
              + group.url()
              + " answered "
              + response.statusCode()
              + (body.isEmpty() ? "" : ": " + body));
    }
  }

  private static String describe(IOException e) {
    return ConnectFailures.describe(e);
  }

  /** A push or delete that did not succeed, as one line. */
  static final class PushException extends Exception {
    private static final long serialVersionUID = 1L;

    PushException(String message) {
      super(message);
    }
  }
}
