package dev.firedrill.prometheus;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.http.HttpEndpoint;
import dev.firedrill.http.HttpSettingsException;
import dev.firedrill.http.Propagation;
import dev.firedrill.time.Durations;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Prometheus's HTTP API: instant queries ({@code POST <base>/api/v1/query}, form-encoded), and the
 * alert, rule and config endpoints ({@code GET}). Every failure becomes one line naming the server
 * and the query or request; the token never appears.
 */
public final class HttpPrometheusClient implements PrometheusClient, PrometheusAlertsApi {

  private final ServerAddress server;
  private final Duration timeout;
  private final HttpEndpoint endpoint;
  private final Consumer<String> warnings;

  public HttpPrometheusClient(URI baseUrl, Duration timeout, Optional<String> bearerToken) {
    this(baseUrl, timeout, bearerToken, warning -> {});
  }

  /** As above; {@code warnings} receives each of Prometheus's {@code warnings}, one line each. */
  public HttpPrometheusClient(
      URI baseUrl, Duration timeout, Optional<String> bearerToken, Consumer<String> warnings) {
    this(baseUrl, timeout, endpoint(timeout, bearerToken), warnings);
  }

  /**
   * A client whose connection, headers and credentials come from {@code endpoint} (see {@link
   * HttpEndpoint#open}); {@code baseUrl} may carry a path prefix such as Mimir's {@code
   * /prometheus}.
   */
  public HttpPrometheusClient(
      URI baseUrl, Duration timeout, HttpEndpoint endpoint, Consumer<String> warnings) {
    this.server = ServerAddress.of(baseUrl);
    checkTimeout(timeout);
    this.timeout = timeout;
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    this.warnings = Objects.requireNonNull(warnings, "warnings");
  }

  private static HttpEndpoint endpoint(Duration timeout, Optional<String> bearerToken) {
    checkTimeout(timeout);
    Objects.requireNonNull(bearerToken, "bearerToken");
    bearerToken.ifPresent(HttpPrometheusClient::checkToken);
    return HttpEndpoint.plain("prometheus", timeout, bearerToken);
  }

  private static void checkTimeout(Duration timeout) {
    if (timeout == null || timeout.toMillis() < 1) {
      throw new IllegalArgumentException(
          "Prometheus timeout " + timeout + " is not usable (expected at least 1ms)");
    }
  }

  /** The server as messages name it: {@code scheme://host:port/path}, without user-info. */
  public String server() {
    return server.display();
  }

  @Override
  public QueryResult query(String promql) throws PrometheusException {
    Objects.requireNonNull(promql, "promql");
    HttpResponse<String> response = send(promql, null);
    return interpret(promql, response.statusCode(), response.body());
  }

  @Override
  public List<PrometheusAlert> alerts() throws PrometheusException {
    return get("alerts", ApiParser::alerts);
  }

  @Override
  public List<RuleGroup> rules() throws PrometheusException {
    return get("rules", ApiParser::rules);
  }

  @Override
  public String config() throws PrometheusException {
    return get("status/config", ApiParser::config);
  }

  /** The server's {@code version} from {@code /api/v1/status/buildinfo}, such as {@code 3.5.3}. */
  public String buildVersion() throws PrometheusException {
    return get("status/buildinfo", ApiParser::buildVersion);
  }

  /**
   * VictoriaMetrics answers {@code /api/v1/rules} with no groups when it proxies to no vmalert, and
   * says so under {@code /vmalert/}: asked only after an empty rule list, to name the cause.
   */
  @Override
  public Optional<String> whyNoRules() {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(server.api("../../vmalert/api/v1/rules"))
            .timeout(timeout)
            .header("Accept", "application/json")
            .header("User-Agent", "firedrill")
            .GET();
    try {
      HttpResponse<String> response = exchange(request, "GET /vmalert/api/v1/rules");
      String body = response.body() == null ? "" : response.body();
      return body.contains("-vmalert.proxyURL")
          ? Optional.of(
              "VictoriaMetrics at "
                  + server()
                  + " proxies no vmalert, so it lists no rules:"
                  + " start it with -vmalert.proxyURL set to vmalert's URL, or set prometheus.rules_url to vmalert")
          : Optional.empty();
    } catch (PrometheusException e) {
      return Optional.empty();
    }
  }

  /** Grafana's Prometheus-compatible API for its own rules, below Grafana's root URL. */
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String GRAFANA_RULES_PATH = "/api/prometheus/grafana";

  /** From {@code <base>/api/v1/}, Grafana's {@code <root>/api/v1/provisioning/alert-rules}. */
  private static final String PROVISIONING_RULES = "../../../../v1/provisioning/alert-rules";

  /**
   * {@code GET <Grafana>/api/v1/provisioning/alert-rules} with this client's credentials, when the
   * base URL is Grafana's {@code /api/prometheus/grafana}.
   */
  @Override
  public Optional<List<GrafanaRuleDetails>> grafanaRuleDetails() throws PrometheusException {
    if (!server().endsWith(GRAFANA_RULES_PATH)) {
      return Optional.empty();
    }
    String subject = "GET /api/v1/provisioning/alert-rules";
    HttpRequest.Builder request =
        HttpRequest.newBuilder(server.api(PROVISIONING_RULES))
            .timeout(timeout)
            .header("Accept", "application/json")
            .header("User-Agent", "firedrill")
            .GET();
    HttpResponse<String> response = exchange(request, subject);
    String grafana = server().substring(0, server().length() - GRAFANA_RULES_PATH.length());
    if (response.statusCode() != 200) {
      throw fail(
          "Grafana at "
              + grafana
              + " answered HTTP "
              + response.statusCode()
              + " to "
              + subject
              + ": "
              // redacted before it is cut: a token cut in half escapes its redaction
              + OneLine.shortened(
                  redact(response.body() == null ? "" : response.body()), OneLine.BODY_LIMIT),
          null);
    }
    try {
      return Optional.of(GrafanaRuleDetails.parse(JSON.readTree(response.body())));
    } catch (JsonProcessingException | ResponseParser.Malformed e) {
      throw fail(
          "Grafana at "
              + grafana
              + " answered "
              + subject
              + " with an unexpected response: "
              + OneLine.of(e.getMessage()),
          null);
    }
  }

  /** {@link #config()}, read: global and per-job intervals. */
  public PrometheusConfig parsedConfig() throws PrometheusException {
    String yaml = config();
    try {
      return PrometheusConfig.parse(yaml);
    } catch (IllegalArgumentException e) {
      throw fail(
          "Prometheus at "
              + server()
              + " answered GET "
              + apiPath("status/config")
              + " with a config firedrill cannot read: "
              + e.getMessage(),
          null);
    }
  }

  /** Reads an endpoint's {@code data}. */
  @FunctionalInterface
  private interface DataReader<T> {
    T read(JsonNode data) throws ResponseParser.Malformed;
  }

  private <T> T get(String endpoint, DataReader<T> reader) throws PrometheusException {
    String subject = "GET " + apiPath(endpoint);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(server.api(endpoint))
            .timeout(timeout)
            .header("Accept", "application/json")
            .header("User-Agent", "firedrill")
            .GET();
    HttpResponse<String> response = exchange(request, subject);
    ResponseParser.Data data =
        (ResponseParser.Data)
            envelope(subject, response.statusCode(), response.body(), ResponseParser::parseData);
    try {
      return reader.read(data.data());
    } catch (ResponseParser.Malformed e) {
      throw fail(
          "Prometheus at "
              + server()
              + " answered HTTP "
              + response.statusCode()
              + " to "
              + subject
              + " with an unexpected response: "
              + e.getMessage(),
          null);
    }
  }

  /** The path as messages name it: {@code /api/v1/rules} (after the base URL's own path). */
  private String apiPath(String endpoint) {
    return "/api/v1/" + endpoint;
  }

  /**
   * An instant query evaluated at {@code at} rather than at the server's "now" (the API's {@code
   * time} parameter, in Unix seconds with up to nanosecond decimals).
   */
  public QueryResult query(String promql, Instant at) throws PrometheusException {
    Objects.requireNonNull(promql, "promql");
    Objects.requireNonNull(at, "at");
    HttpResponse<String> response = send(promql, at);
    return interpret(promql, response.statusCode(), response.body());
  }

  /** {@code at} as the API's {@code time} parameter: Unix seconds, decimals only when needed. */
  static String unixSeconds(Instant at) {
    return BigDecimal.valueOf(at.getEpochSecond())
        .add(BigDecimal.valueOf(at.getNano(), 9))
        .stripTrailingZeros()
        .toPlainString();
  }

  private HttpResponse<String> send(String promql, Instant at) throws PrometheusException {
    String form =
        "query="
            + URLEncoder.encode(promql, StandardCharsets.UTF_8)
            + (at == null ? "" : "&time=" + unixSeconds(at))
            + "&timeout="
            + timeout.toMillis()
            + "ms";
    HttpRequest.Builder request =
        HttpRequest.newBuilder(server.queryEndpoint())
            .timeout(timeout)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Accept", "application/json")
            .header("User-Agent", "firedrill")
            .POST(HttpRequest.BodyPublishers.ofString(form, StandardCharsets.UTF_8));
    return exchange(request, "query " + quote(promql));
  }

  /**
   * Sends the request; {@code subject} names it in messages ({@code query "up"}, {@code GET
   * /api/v1/rules}).
   */
  private HttpResponse<String> exchange(HttpRequest.Builder request, String subject)
      throws PrometheusException {
    try {
      endpoint.authorize(request);
    } catch (HttpSettingsException e) {
      throw fail(e.getMessage() + ", for " + subject + " to Prometheus at " + server(), null);
    }
    Propagation.injectCurrent(request);
    CompletableFuture<HttpResponse<String>> future =
        endpoint
            .client()
            .sendAsync(
                request.build(),
                dev.firedrill.http.BoundedExchange.ofString(
                    dev.firedrill.http.BoundedExchange.DEFAULT_MAX_BYTES));
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw fail(
          "interrupted while waiting for Prometheus at " + server() + " to answer " + subject, e);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw timedOut(subject, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (has(cause, HttpTimeoutException.class)) {
        throw timedOut(subject, cause);
      }
      if (has(cause, dev.firedrill.http.BoundedExchange.TooLarge.class)) {
        throw fail(
            "Prometheus at " + server() + " answered " + subject + " with a " + cause.getMessage(),
            cause);
      }
      throw fail(
          "cannot reach Prometheus at " + server() + " (" + reason(cause) + ") for " + subject,
          cause);
    }
  }

  private QueryResult interpret(String promql, int status, String body) throws PrometheusException {
    String subject = "query " + quote(promql);
    ResponseParser.Success success =
        (ResponseParser.Success) envelope(subject, status, body, ResponseParser::parse);
    success
        .warnings()
        .forEach(
            w ->
                warnings.accept(
                    redact("Prometheus at " + server() + " warned about " + subject + ": " + w)));
    return success.result();
  }

  @FunctionalInterface
  private interface EnvelopeParser {
    ResponseParser.Envelope parse(String body)
        throws ResponseParser.NotJson, ResponseParser.Malformed;
  }

  /** Said of an answer no Prometheus API gives, so that a wrong url reads as one. */
  static final String NOT_PROMETHEUS =
      "; that is not a Prometheus API answer: check that the url is the server's base URL, such"
          + " as http://HOST:9090 (firedrill adds /api/v1/...)";

  /**
   * Whether a non-JSON error answer says the server does not serve this API at all: a method it
   * does not take (an ordinary web server refusing the POST of a query), or an HTML page for a
   * missing path. A gateway's 502-504 and Prometheus's own plain "404 page not found" are not.
   */
  private static boolean notAnApi(int status, String body) {
    return status == 405 || status == 501 || (status == 404 && body.stripLeading().startsWith("<"));
  }

  /** The success envelope, or the one-line failure for a status, a body or an error envelope. */
  private ResponseParser.Envelope envelope(
      String subject, int status, String body, EnvelopeParser parser) throws PrometheusException {
    String prefix = "Prometheus at " + server() + " ";
    if (status == 403 && body != null && body.contains("non allow-listed")) {
      throw fail(grafanaProxyRefusal(subject, body), null);
    }
    ResponseParser.Envelope envelope;
    try {
      envelope = parser.parse(body);
    } catch (ResponseParser.NotJson e) {
      if (body == null || body.isBlank()) {
        throw fail(
            prefix + "answered HTTP " + status + " to " + subject + " with an empty body", null);
      }
      if (status / 100 == 2) {
        throw fail(
            prefix
                + "answered HTTP "
                + status
                + " to "
                + subject
                + " with a body that is not JSON: "
                + OneLine.shortened(redact(body), OneLine.BODY_LIMIT)
                + NOT_PROMETHEUS,
            null);
      }
      throw fail(
          prefix
              + "answered HTTP "
              + status
              + " to "
              + subject
              + ": "
              + OneLine.shortened(redact(body), OneLine.BODY_LIMIT)
              + (notAnApi(status, body) ? NOT_PROMETHEUS : ""),
          null);
    } catch (ResponseParser.Malformed e) {
      throw fail(
          prefix
              + "answered HTTP "
              + status
              + " to "
              + subject
              + " with an unexpected response: "
              + e.getMessage(),
          null);
    }
    if (envelope instanceof ResponseParser.Failure failure) {
      if (status == 400 || status == 422 || status / 100 == 2) {
        throw fail(prefix + "refused " + subject + ": " + failure.describe(), null);
      }
      throw fail(
          prefix + "answered HTTP " + status + " to " + subject + ": " + failure.describe(), null);
    }
    if (status / 100 != 2) {
      throw fail(
          prefix
              + "answered HTTP "
              + status
              + " to "
              + subject
              + " with a success envelope (expected 2xx)",
          null);
    }
    List<String> dataWarnings =
        envelope instanceof ResponseParser.Data data ? data.warnings() : List.of();
    dataWarnings.forEach(
        w -> warnings.accept(redact(prefix + "warned about " + subject + ": " + w)));
    return envelope;
  }

  /**
   * Grafana's data-source proxy ({@code /api/datasources/proxy/uid/<uid>}) lets a POST through only
   * on the routes the Prometheus plugin allow-lists ({@code /api/v1/query}, {@code query_range},
   * {@code series}, {@code labels}, {@code query_exemplars}) and answers 403 to any other, so the
   * line says which call was refused and what to point at instead.
   */
  private String grafanaProxyRefusal(String subject, String body) {
    return "Grafana's data-source proxy at "
        + server()
        + " refused "
        + subject
        + " (HTTP 403: "
        + OneLine.shortened(redact(body), OneLine.BODY_LIMIT)
        + "); through the proxy firedrill sends only POST /api/v1/query and GETs, so this call"
        + " needs Prometheus itself (set prometheus.rules_url to Grafana's"
        + " /api/prometheus/grafana for Grafana-managed rules)";
  }

  private PrometheusException timedOut(String subject, Throwable cause) {
    return fail(
        "Prometheus at "
            + server()
            + ": "
            + subject
            + " timed out after "
            + Durations.format(timeout),
        cause);
  }

  private PrometheusException fail(String message, Throwable cause) {
    // The cause is kept for debugging but its text may hold anything; our message is the contract.
    return cause == null
        ? new PrometheusException(redact(message))
        : new PrometheusException(redact(message), cause);
  }

  private String redact(String message) {
    return endpoint.redact(OneLine.of(message));
  }

  static String quote(String promql) {
    return "\"" + OneLine.of(promql) + "\"";
  }

  private static String reason(Throwable cause) {
    String known = dev.firedrill.http.ConnectFailures.reason(cause);
    if (known != null) {
      return known;
    }
    String message = cause.getMessage();
    return message == null || message.isBlank()
        ? cause.getClass().getSimpleName()
        : OneLine.shortened(message, OneLine.BODY_LIMIT);
  }

  private static boolean has(Throwable error, Class<? extends Throwable> type) {
    return find(error, type) != null;
  }

  private static <T extends Throwable> T find(Throwable error, Class<T> type) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  private static void checkToken(String token) {
    if (token.isBlank() || token.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      throw new IllegalArgumentException(
          "bearer token for Prometheus is blank or holds a line break or control character (expected one line of text)");
    }
  }
}
