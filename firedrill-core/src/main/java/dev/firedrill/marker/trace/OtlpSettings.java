package dev.firedrill.marker.trace;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where to send spans over OTLP http/protobuf, from the standard {@code OTEL_EXPORTER_OTLP_*}
 * variables. Header values carry tokens: no message here ever contains one.
 *
 * @param endpoint the full traces URL ({@code .../v1/traces})
 * @param headers sent with every export; the traces-specific variable wins over the general one
 */
public record OtlpSettings(URI endpoint, Map<String, String> headers) {

  private static final String ENDPOINT = "OTEL_EXPORTER_OTLP_ENDPOINT";
  private static final String TRACES_ENDPOINT = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";
  private static final String HEADERS = "OTEL_EXPORTER_OTLP_HEADERS";
  private static final String TRACES_HEADERS = "OTEL_EXPORTER_OTLP_TRACES_HEADERS";
  private static final String PROTOCOL = "OTEL_EXPORTER_OTLP_PROTOCOL";
  private static final String TRACES_PROTOCOL = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL";

  public OtlpSettings {
    headers = Map.copyOf(headers);
  }

  /**
   * Empty when no endpoint is set; {@link IllegalArgumentException} with one line for a bad value.
   */
  public static Optional<OtlpSettings> from(Map<String, String> environment) {
    Optional<URI> endpoint =
        value(environment, TRACES_ENDPOINT)
            .map(url -> url(TRACES_ENDPOINT, url))
            .or(() -> value(environment, ENDPOINT).map(url -> tracesUrl(url(ENDPOINT, url))));
    if (endpoint.isEmpty()) {
      return Optional.empty();
    }
    for (String name : new String[] {TRACES_PROTOCOL, PROTOCOL}) {
      Optional<String> protocol = value(environment, name);
      if (protocol.isPresent() && !protocol.get().equals("http/protobuf")) {
        throw new IllegalArgumentException(
            name + " \"" + protocol.get() + "\" is not supported (expected http/protobuf)");
      }
    }
    Map<String, String> headers = new LinkedHashMap<>();
    value(environment, HEADERS).ifPresent(text -> headers.putAll(headers(HEADERS, text)));
    value(environment, TRACES_HEADERS)
        .ifPresent(text -> headers.putAll(headers(TRACES_HEADERS, text)));
    return Optional.of(new OtlpSettings(endpoint.get(), headers));
  }

  /** The endpoint without user info, query or fragment: safe to print. */
  public String display() {
    return endpoint.getScheme()
        + "://"
        + endpoint.getHost()
        + (endpoint.getPort() >= 0 ? ":" + endpoint.getPort() : "")
        + (endpoint.getRawPath() == null ? "" : endpoint.getRawPath());
  }

  /** Names the headers, never their values. */
  @Override
  public String toString() {
    return "OtlpSettings[endpoint=" + display() + ", headers=" + headers.keySet() + "]";
  }

  private static Optional<String> value(Map<String, String> environment, String name) {
    return Optional.ofNullable(environment.get(name)).map(String::trim).filter(v -> !v.isEmpty());
  }

  private static URI url(String name, String text) {
    URI uri;
    try {
      uri = URI.create(text);
    } catch (IllegalArgumentException e) {
      uri = null;
    }
    if (uri == null
        || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
        || uri.getHost() == null) {
      throw new IllegalArgumentException(
          name + " is not a usable URL (expected http://HOST:PORT or https://HOST:PORT)");
    }
    return uri;
  }

  /**
   * The general endpoint is a base: the signal's path is appended, as the OTLP exporter spec says.
   */
  private static URI tracesUrl(URI base) {
    String text = base.toString();
    return URI.create((text.endsWith("/") ? text : text + "/") + "v1/traces");
  }

  /** {@code key1=value1,key2=value2}, values percent-encoded (W3C baggage format). */
  private static Map<String, String> headers(String name, String text) {
    Map<String, String> headers = new LinkedHashMap<>();
    String[] entries = text.split(",");
    for (int i = 0; i < entries.length; i++) {
      String entry = entries[i].trim();
      int equals = entry.indexOf('=');
      if (equals <= 0) {
        throw new IllegalArgumentException(
            name
                + ": entry "
                + (i + 1)
                + " is not usable (expected key=value pairs separated by commas)");
      }
      try {
        headers.put(
            entry.substring(0, equals).trim(),
            URLDecoder.decode(entry.substring(equals + 1).trim(), StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            name + ": entry " + (i + 1) + " is not usable (its value has a bad percent-encoding)");
      }
    }
    return headers;
  }
}
