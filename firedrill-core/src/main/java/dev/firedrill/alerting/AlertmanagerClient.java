package dev.firedrill.alerting;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.alerting.routes.RouteConfigException;
import dev.firedrill.alerting.routes.RouteDialect;
import dev.firedrill.alerting.routes.RouteTree;
import dev.firedrill.format.Shorten;
import dev.firedrill.http.HttpEndpoint;
import dev.firedrill.http.HttpSettingsException;
import dev.firedrill.http.Propagation;
import dev.firedrill.time.Durations;
import dev.firedrill.time.Rfc3339;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Alertmanager's HTTP API v2, the part detection reads. Every failure becomes one line naming the
 * server and the request; the token never appears.
 */
public final class AlertmanagerClient {

  static final String ALERTS = "/api/v2/alerts";
  static final String STATUS = "/api/v2/status";
  private static final int BODY_LIMIT = 200;
  private static final ObjectReader READER = new ObjectMapper().reader();

  private final URI base;
  private final String display;
  private final Duration timeout;
  private final HttpEndpoint endpoint;

  public AlertmanagerClient(URI baseUrl, Duration timeout, Optional<String> bearerToken) {
    this(baseUrl, timeout, endpoint(timeout, bearerToken));
  }

  /**
   * A client whose connection, headers and credentials come from {@code endpoint} (see {@link
   * HttpEndpoint#open}).
   */
  public AlertmanagerClient(URI baseUrl, Duration timeout, HttpEndpoint endpoint) {
    if (baseUrl == null) {
      throw new IllegalArgumentException(
          "Alertmanager URL is missing (expected e.g. http://127.0.0.1:9093)");
    }
    if (baseUrl.getRawUserInfo() != null
        || baseUrl.getRawAuthority() != null && baseUrl.getRawAuthority().contains("@")) {
      throw new IllegalArgumentException(
          "credentials in the Alertmanager URL are not allowed; use a bearer token");
    }
    String scheme =
        baseUrl.getScheme() == null ? null : baseUrl.getScheme().toLowerCase(Locale.ROOT);
    if (!"http".equals(scheme) && !"https".equals(scheme)
        || baseUrl.getHost() == null
        || baseUrl.getHost().isEmpty()) {
      throw new IllegalArgumentException(
          "Alertmanager URL \""
              + baseUrl
              + "\" is not usable (expected http:// or https:// with a host, e.g. http://127.0.0.1:9093)");
    }
    String path = baseUrl.getRawPath() == null ? "" : baseUrl.getRawPath();
    path = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    String origin =
        scheme
            + "://"
            + baseUrl.getHost()
            + (baseUrl.getPort() == -1 ? "" : ":" + baseUrl.getPort());
    this.base = URI.create(origin + path);
    this.display = origin + path;
    if (timeout == null || timeout.toMillis() < 1) {
      throw new IllegalArgumentException(
          "Alertmanager timeout " + timeout + " is not usable (expected at least 1ms)");
    }
    checkTimeout(timeout);
    this.timeout = timeout;
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
  }

  private static HttpEndpoint endpoint(Duration timeout, Optional<String> bearerToken) {
    checkTimeout(timeout);
    Objects.requireNonNull(bearerToken, "bearerToken");
    bearerToken.ifPresent(
        token -> {
          if (token.isBlank() || token.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new IllegalArgumentException(
                "bearer token for Alertmanager is blank or holds a line break or"
                    + " control character (expected one line of text)");
          }
        });
    return HttpEndpoint.plain("alertmanager", timeout, bearerToken);
  }

  private static void checkTimeout(Duration timeout) {
    if (timeout == null || timeout.toMillis() < 1) {
      throw new IllegalArgumentException(
          "Alertmanager timeout " + timeout + " is not usable (expected at least 1ms)");
    }
  }

  /** The server as messages name it: {@code scheme://host:port/path}. */
  public String server() {
    return display;
  }

  /**
   * {@code GET /api/v2/alerts}: every alert Alertmanager holds (active, silenced, inhibited and
   * unprocessed), with the receivers its routes lead to.
   */
  public List<AlertmanagerAlert> alerts() throws AlertmanagerException {
    String subject = "GET " + ALERTS;
    HttpResponse<String> response = get(ALERTS, subject);
    String prefix =
        "Alertmanager at " + display + " answered HTTP " + response.statusCode() + " to " + subject;
    String body = response.body();
    if (response.statusCode() / 100 != 2) {
      throw fail(
          prefix
              + (body == null || body.isBlank()
                  ? " with an empty body"
                  : ": " + shortenedBody(body) + notAnApi(response.statusCode(), body)),
          null);
    }
    JsonNode root;
    try {
      root = READER.readTree(body);
    } catch (JsonProcessingException e) {
      throw fail(
          prefix + " with a body that is not JSON: " + shortenedBody(body) + NOT_ALERTMANAGER,
          null);
    }
    try {
      return alerts(root);
    } catch (Malformed e) {
      throw fail(prefix + " with an unexpected response: " + e.getMessage(), null);
    }
  }

  /**
   * {@code GET /api/v2/status}: the configuration Alertmanager runs, as the YAML it was loaded
   * from.
   */
  public String config() throws AlertmanagerException {
    String subject = "GET " + STATUS;
    HttpResponse<String> response = get(STATUS, subject);
    String prefix =
        "Alertmanager at " + display + " answered HTTP " + response.statusCode() + " to " + subject;
    String body = response.body();
    if (response.statusCode() / 100 != 2) {
      throw fail(
          prefix
              + (body == null || body.isBlank()
                  ? " with an empty body"
                  : ": " + shortenedBody(body) + notAnApi(response.statusCode(), body)),
          null);
    }
    try {
      JsonNode config = READER.readTree(body).path("config");
      JsonNode original = config.path("original");
      // Grafana's built-in Alertmanager (/api/alertmanager/grafana) holds the configuration as a
      // JSON object, routes with object_matchers; JSON is YAML, so the route reader takes it as is.
      if (!original.isTextual() && config.isObject() && config.has("route")) {
        return config.toString();
      }
      if (!original.isTextual()) {
        throw fail(
            prefix + " with an unexpected response: no config.original (expected the loaded YAML)",
            null);
      }
      return original.asText();
    } catch (JsonProcessingException e) {
      throw fail(
          prefix + " with a body that is not JSON: " + shortenedBody(body) + NOT_ALERTMANAGER,
          null);
    }
  }

  /**
   * The route tree Alertmanager runs, read from {@code config.original} of {@code /api/v2/status}
   * as today's Alertmanager reads it by default ({@link RouteDialect#CURRENT}). That text is
   * Alertmanager's own rendering of the loaded file, not the file: matchers come back as it prints
   * them ({@code service.name="x"}, {@code "k8s.pod name"=~"api-.*"}), and an empty {@code
   * group_by: []} is left out, so a route that had one appears to inherit its parent's grouping.
   */
  public RouteTree routes() throws AlertmanagerException, RouteConfigException {
    if (display.endsWith(GRAFANA_AM)) {
      Optional<String> policies = grafanaPolicies();
      if (policies.isPresent()) {
        return RouteTree.parse(
            "Grafana " + grafanaRoot() + " notification policies",
            policies.get(),
            RouteDialect.CURRENT);
      }
    }
    return RouteTree.parse("Alertmanager " + display + " config", config(), RouteDialect.CURRENT);
  }

  /**
   * Drops the provisioning API's {@code provenance} (who last changed the tree: {@code api}, {@code
   * file}), Grafana's bookkeeping rather than routing, from every route.
   */
  private static void withoutProvenance(JsonNode route) {
    if (route instanceof ObjectNode object) {
      object.remove("provenance");
      route.path("routes").forEach(AlertmanagerClient::withoutProvenance);
    }
  }

  /** Grafana's built-in Alertmanager, below Grafana's root URL. */
  private static final String GRAFANA_AM = "/api/alertmanager/grafana";

  private String grafanaRoot() {
    return display.substring(0, display.length() - GRAFANA_AM.length());
  }

  /**
   * Grafana's notification policy tree from its provisioning API ({@code GET
   * /api/v1/provisioning/policies}, the route itself, with {@code object_matchers}) as a route
   * config; empty when Grafana does not hand it out (that API wants {@code alert.provisioning:read}
   * or {@code alert.notifications:read}), so the caller reads {@code /api/v2/status} instead.
   */
  private Optional<String> grafanaPolicies() throws AlertmanagerException {
    String path = "/api/v1/provisioning/policies";
    HttpResponse<String> response =
        send(URI.create(grafanaRoot() + path), "GET " + path, "Grafana", grafanaRoot());
    if (response.statusCode() != 200) {
      return Optional.empty();
    }
    try {
      JsonNode route = READER.readTree(response.body());
      if (route == null || !route.isObject() || !route.has("receiver")) {
        return Optional.empty();
      }
      withoutProvenance(route);
      return Optional.of(JsonNodeFactory.instance.objectNode().set("route", route).toString());
    } catch (JsonProcessingException e) {
      return Optional.empty();
    }
  }

  static List<AlertmanagerAlert> alerts(JsonNode root) throws Malformed {
    if (root == null || !root.isArray()) {
      throw new Malformed("the body is not a JSON array (expected a list of alerts)");
    }
    List<AlertmanagerAlert> alerts = new ArrayList<>(root.size());
    for (int i = 0; i < root.size(); i++) {
      JsonNode alert = root.get(i);
      String path = "[" + i + "]";
      JsonNode status = alert.path("status");
      List<String> receivers = new ArrayList<>();
      for (JsonNode receiver : alert.path("receivers")) {
        receivers.add(text(receiver, "name", path + ".receivers[].name"));
      }
      alerts.add(
          new AlertmanagerAlert(
              strings(alert.get("labels"), path + ".labels", true),
              strings(alert.get("annotations"), path + ".annotations", false),
              time(alert, "startsAt", path),
              time(alert, "endsAt", path),
              time(alert, "updatedAt", path),
              text(alert, "fingerprint", path + ".fingerprint"),
              text(status, "state", path + ".status.state"),
              receivers,
              textList(status.path("silencedBy")),
              textList(status.path("inhibitedBy")),
              alert.path("generatorURL").asText("")));
    }
    return alerts;
  }

  /** The JSON is not the shape the API documents; the message names the field. */
  static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message);
    }
  }

  private HttpResponse<String> get(String path, String subject) throws AlertmanagerException {
    return send(URI.create(base + path), subject, "Alertmanager", display);
  }

  /** GET {@code url}; messages name the server {@code name at where}. */
  private HttpResponse<String> send(URI url, String subject, String name, String where)
      throws AlertmanagerException {
    String server = name + " at " + where;
    HttpRequest.Builder request =
        HttpRequest.newBuilder(url)
            .timeout(timeout)
            .header("Accept", "application/json")
            .header("User-Agent", "firedrill")
            .GET();
    try {
      endpoint.authorize(request);
    } catch (HttpSettingsException e) {
      throw fail(e.getMessage() + ", for " + subject + " to " + server, null);
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
      throw fail("interrupted while waiting for " + server + " to answer " + subject, e);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw fail(server + ": " + subject + " timed out after " + Durations.format(timeout), e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (find(cause, HttpTimeoutException.class) != null) {
        throw fail(
            server + ": " + subject + " timed out after " + Durations.format(timeout), cause);
      }
      if (find(cause, dev.firedrill.http.BoundedExchange.TooLarge.class) != null) {
        throw fail(server + " answered " + subject + " with a " + cause.getMessage(), cause);
      }
      throw fail("cannot reach " + server + " (" + reason(cause) + ") for " + subject, cause);
    }
  }

  private AlertmanagerException fail(String message, Throwable cause) {
    String line = oneLine(message);
    String safe = endpoint.redact(line);
    return cause == null ? new AlertmanagerException(safe) : new AlertmanagerException(safe, cause);
  }

  /** Said of an answer no Alertmanager API gives, so that a wrong url reads as one. */
  static final String NOT_ALERTMANAGER =
      "; that is not an Alertmanager API answer: check that the url is Alertmanager's base URL,"
          + " such as http://HOST:9093 (firedrill adds /api/v2/...)";

  /** An HTML page for a missing path, or a method refused: a web server, not Alertmanager. */
  private static String notAnApi(int status, String body) {
    boolean page = body.stripLeading().startsWith("<");
    return (status == 404 && page) || status == 405 || status == 501 ? NOT_ALERTMANAGER : "";
  }

  private static String reason(Throwable cause) {
    String known = dev.firedrill.http.ConnectFailures.reason(cause);
    if (known != null) {
      return known;
    }
    String message = cause.getMessage();
    return message == null || message.isBlank()
        ? cause.getClass().getSimpleName()
        : shortened(message);
  }

  private static <T extends Throwable> T find(Throwable error, Class<T> type) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  private static Instant time(JsonNode parent, String field, String path) throws Malformed {
    String text = text(parent, field, path + "." + field);
    try {
      return Rfc3339.parse(text);
    } catch (DateTimeParseException e) {
      throw new Malformed(
          "\""
              + path
              + "."
              + field
              + "\" is \""
              + shortened(text)
              + "\" (expected an RFC 3339 time)");
    }
  }

  private static String text(JsonNode parent, String field, String name) throws Malformed {
    JsonNode value = parent.get(field);
    if (value == null || !value.isTextual()) {
      throw new Malformed(
          "\""
              + name
              + "\" is "
              + (value == null ? "missing" : shortened(value.toString()))
              + " (expected a string)");
    }
    return value.asText();
  }

  private static Map<String, String> strings(JsonNode object, String name, boolean required)
      throws Malformed {
    if (object == null || object.isNull()) {
      if (required) {
        throw new Malformed("\"" + name + "\" is missing (expected an object of strings)");
      }
      return Map.of();
    }
    if (!object.isObject()) {
      throw new Malformed(
          "\""
              + name
              + "\" is "
              + shortened(object.toString())
              + " (expected an object of strings)");
    }
    Map<String, String> map = new LinkedHashMap<>();
    object
        .properties()
        .iterator()
        .forEachRemaining(e -> map.put(e.getKey(), e.getValue().asText()));
    return map;
  }

  private static List<String> textList(JsonNode array) {
    List<String> list = new ArrayList<>();
    array.forEach(item -> list.add(item.asText()));
    return list;
  }

  private static String oneLine(String text) {
    return text == null ? "" : text.strip().replaceAll("\\s+", " ");
  }

  private static String shortened(String text) {
    return Shorten.cut(oneLine(text), BODY_LIMIT);
  }

  /** A server's body, redacted before it is cut: a token cut in half would escape redaction. */
  private String shortenedBody(String body) {
    return Shorten.cut(endpoint.redact(oneLine(body)), BODY_LIMIT);
  }
}
