package dev.firedrill.prometheus;

import java.net.URI;
import java.util.Locale;

/**
 * A Prometheus base URL, checked: the query endpoint to call and how the server is named in
 * messages ({@code scheme://host:port/path}, never user-info, query or fragment).
 */
record ServerAddress(URI queryEndpoint, String display) {

  static final String CREDENTIALS_REFUSED =
      "credentials in the Prometheus URL are not allowed; use bearer_token_env or bearer_token_file";

  static ServerAddress of(URI baseUrl) {
    if (baseUrl == null) {
      throw new IllegalArgumentException(
          "Prometheus URL is missing (expected e.g. http://127.0.0.1:9090)");
    }
    if (baseUrl.getRawUserInfo() != null
        || baseUrl.getRawAuthority() != null && baseUrl.getRawAuthority().contains("@")) {
      throw new IllegalArgumentException(CREDENTIALS_REFUSED);
    }
    String scheme =
        baseUrl.getScheme() == null ? null : baseUrl.getScheme().toLowerCase(Locale.ROOT);
    String host = baseUrl.getHost();
    if (!"http".equals(scheme) && !"https".equals(scheme) || host == null || host.isEmpty()) {
      throw new IllegalArgumentException(
          "Prometheus URL \""
              + safeText(baseUrl)
              + "\" is not usable (expected http:// or https:// with a host, e.g. http://127.0.0.1:9090)");
    }
    String path = baseUrl.getRawPath() == null ? "" : baseUrl.getRawPath();
    String origin =
        scheme + "://" + host + (baseUrl.getPort() == -1 ? "" : ":" + baseUrl.getPort());
    String prefix = path.endsWith("/") ? path : path + "/";
    String display = origin + (path.endsWith("/") ? path.substring(0, path.length() - 1) : path);
    return new ServerAddress(URI.create(origin + prefix + "api/v1/query"), display);
  }

  /** An endpoint beside the query endpoint: {@code api("rules")} is {@code <base>/api/v1/rules}. */
  URI api(String path) {
    return queryEndpoint.resolve(path);
  }

  /** A URL for a message when it could not be parsed into parts; user-info was already refused. */
  private static String safeText(URI uri) {
    String text = uri.toString();
    int at = text.indexOf('@');
    return at < 0 ? text : "<redacted>" + text.substring(at + 1);
  }
}
