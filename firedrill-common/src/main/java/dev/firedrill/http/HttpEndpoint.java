package dev.firedrill.http;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;

/**
 * The one place where {@link HttpSettings} become a {@link HttpClient} and the headers of each
 * request. Secrets are read when the endpoint opens (so a missing one stops the command before
 * anything runs) and again on every request (so a rotated token or password file is used); every
 * value read is remembered only to be {@linkplain #redact(String) redacted} from messages.
 */
public final class HttpEndpoint {

  private final String name;
  private final HttpSettings settings;
  private final Map<String, String> environment;
  private final HttpClient client;
  private final Set<String> seen = ConcurrentHashMap.newKeySet();

  private HttpEndpoint(
      String name, HttpSettings settings, Map<String, String> environment, HttpClient client) {
    this.name = name;
    this.settings = settings;
    this.environment = Map.copyOf(environment);
    this.client = client;
  }

  /**
   * {@code name} is the settings' key in the experiment file ({@code prometheus}, {@code
   * markers.grafana}), for messages; {@code connectTimeout} bounds each connection.
   */
  public static HttpEndpoint open(
      String name, HttpSettings settings, Duration connectTimeout, Map<String, String> environment)
      throws HttpSettingsException {
    Objects.requireNonNull(settings, "settings");
    HttpClient.Builder builder =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(connectTimeout)
            .followRedirects(HttpClient.Redirect.NEVER);
    if (settings.tls().isPresent()) {
      SSLContext context = TlsContexts.build(name + ".tls", settings.tls().get());
      builder.sslContext(context);
    }
    HttpEndpoint endpoint = new HttpEndpoint(name, settings, environment, builder.build());
    endpoint.headers(); // reads every secret once: a missing one is an error now, not at the first
    // request
    return endpoint;
  }

  /** No settings but perhaps a token given in code (firedrill's tests and its own servers). */
  public static HttpEndpoint plain(
      String name, Duration connectTimeout, Optional<String> bearerToken) {
    try {
      return open(
          name, HttpSettings.bearer(bearerToken.map(Secret::given)), connectTimeout, Map.of());
    } catch (HttpSettingsException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  public HttpClient client() {
    return client;
  }

  /**
   * The headers one request carries: the configured ones, then {@code Authorization}. Secrets are
   * read now, from their files when they come from files.
   */
  public Map<String, String> headers() throws HttpSettingsException {
    Map<String, String> headers = new LinkedHashMap<>(settings.headers());
    if (settings.bearerToken().isPresent()) {
      String token = read(settings.bearerToken().get(), "bearer token", "a bearer token");
      headers.put("Authorization", "Bearer " + token);
    } else if (settings.basicAuth().isPresent()) {
      BasicAuth auth = settings.basicAuth().get();
      String password = read(auth.password(), "basic_auth password", "a password");
      String pair =
          Base64.getEncoder()
              .encodeToString((auth.username() + ":" + password).getBytes(StandardCharsets.UTF_8));
      seen.add(pair);
      headers.put("Authorization", "Basic " + pair);
    }
    return headers;
  }

  /** Puts {@link #headers()} on the request. */
  public HttpRequest.Builder authorize(HttpRequest.Builder request) throws HttpSettingsException {
    for (Map.Entry<String, String> header : headers().entrySet()) {
      try {
        request.setHeader(header.getKey(), header.getValue());
      } catch (IllegalArgumentException e) {
        // The JDK's message quotes the value, which holds the secret: never pass it on.
        throw new HttpSettingsException(
            name
                + " header "
                + header.getKey()
                + " is not a valid HTTP header value (a character outside Latin-1 in the"
                + " secret?); the value is not shown");
      }
    }
    return request;
  }

  /** {@code text} with every secret this endpoint has read replaced by {@code <redacted>}. */
  public String redact(String text) {
    return redact(text, "<redacted>");
  }

  /** {@link #redact(String)} with another mark, where a client's messages already use one. */
  public String redact(String text, String mark) {
    String result = text;
    // The longest first: a secret read with its byte-order mark holds the one read without.
    for (String secret :
        seen.stream().sorted(Comparator.comparingInt(String::length).reversed()).toList()) {
      result = result.replace(secret, mark);
    }
    return result;
  }

  private String read(Secret secret, String what, String expected) throws HttpSettingsException {
    Optional<String> value;
    try {
      value = secret.resolve(environment, expected);
    } catch (IOException e) {
      throw new HttpSettingsException(
          name + " " + what + " (" + secret.describe() + "): " + e.getMessage());
    }
    if (value.isEmpty()) {
      throw new HttpSettingsException(
          name
              + " "
              + what
              + " ("
              + secret.describe()
              + "): nothing to read (expected "
              + expected
              + ")");
    }
    // An editor's byte-order mark at the start of a token file is not part of the token.
    String text = value.get().startsWith("\uFEFF") ? value.get().substring(1) : value.get();
    if (text.codePoints().anyMatch(c -> Character.getType(c) == Character.FORMAT)) {
      throw new HttpSettingsException(
          name
              + " "
              + what
              + " ("
              + secret.describe()
              + ") holds an invisible character such as a zero-width space or a byte-order mark"
              + " (expected the token alone; the value is not shown)");
    }
    if (text.isBlank() || text.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      throw new HttpSettingsException(
          name
              + " "
              + what
              + " ("
              + secret.describe()
              + ") is blank or holds a line"
              + " break or control character (expected one line of text)");
    }
    seen.add(value.get());
    seen.add(text);
    return text;
  }
}
