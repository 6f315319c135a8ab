package dev.firedrill.marker.grafana;

import dev.firedrill.http.BoundedExchange;
import dev.firedrill.http.ConnectFailures;
import dev.firedrill.http.HttpEndpoint;
import dev.firedrill.http.HttpSettingsException;
import dev.firedrill.http.Propagation;
import io.opentelemetry.context.Context;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/** One attempt at one request to Grafana's HTTP API, bounded by the target's timeout. */
final class GrafanaClient {

  private final String base;
  private final HttpEndpoint endpoint;
  private final Duration timeout;
  private final Optional<Long> orgId;

  GrafanaClient(URI url, HttpEndpoint endpoint, Duration timeout) {
    this(url, endpoint, timeout, Optional.empty());
  }

  /** {@code orgId}: the organization every request names in {@code X-Grafana-Org-Id}. */
  GrafanaClient(URI url, HttpEndpoint endpoint, Duration timeout, Optional<Long> orgId) {
    String text = url.toString();
    // Grafana may live under a sub-path (root_url), so the API path is appended, not resolved.
    this.base = text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
    this.endpoint = endpoint;
    this.timeout = timeout;
    this.orgId = orgId;
  }

  String url(String path) {
    return base + path;
  }

  /**
   * Sends {@code json} with {@code method} to {@code path} ({@code json} null: no body, as for a
   * GET); carries the drill's trace context.
   */
  Outcome send(String method, String path, String json, Context context)
      throws InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url(path)))
            .timeout(timeout)
            .header("Accept", "application/json")
            .method(
                method,
                json == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
    if (json != null) {
      request.header("Content-Type", "application/json");
    }
    orgId.ifPresent(id -> request.header("X-Grafana-Org-Id", Long.toString(id)));
    try {
      endpoint.authorize(request);
    } catch (HttpSettingsException e) {
      return Outcome.noAnswer("not sent: " + e.getMessage());
    }
    Propagation.inject(context, request::header);
    try {
      // Bounded to the body's last byte: the request timeout alone ends at the headers.
      HttpResponse<String> response =
          BoundedExchange.send(
              endpoint.client(), request.build(), timeout, BoundedExchange.DEFAULT_MAX_BYTES);
      return Outcome.answered(response.statusCode(), response.body());
    } catch (HttpTimeoutException e) {
      return Outcome.noAnswer("no answer within " + millis(timeout));
    } catch (ConnectException e) {
      return Outcome.noAnswer(
          "cannot connect" + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"));
    } catch (IOException e) {
      return Outcome.noAnswer(ConnectFailures.describe(e));
    }
  }

  static String millis(Duration duration) {
    return duration.toMillis() % 1000 == 0
        ? duration.toSeconds() + "s"
        : duration.toMillis() + "ms";
  }
}
