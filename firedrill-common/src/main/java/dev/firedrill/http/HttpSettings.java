package dev.firedrill.http;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How firedrill talks to one HTTP API (Prometheus, Alertmanager, Grafana): extra headers with
 * values that are not secret (such as {@code X-Scope-OrgID}), at most one of a bearer token and
 * basic authentication, and TLS. Plain data; {@link HttpEndpoint} turns it into a client.
 */
public record HttpSettings(
    Map<String, String> headers,
    Optional<Secret> bearerToken,
    Optional<BasicAuth> basicAuth,
    Optional<Tls> tls) {

  public HttpSettings {
    headers =
        Collections.unmodifiableMap(new LinkedHashMap<>(headers == null ? Map.of() : headers));
    bearerToken = bearerToken == null ? Optional.empty() : bearerToken;
    basicAuth = basicAuth == null ? Optional.empty() : basicAuth;
    tls = tls == null ? Optional.empty() : tls;
    if (bearerToken.isPresent() && basicAuth.isPresent()) {
      throw new IllegalArgumentException(
          "a bearer token and basic_auth exclude each other (expected one of them)");
    }
  }

  public static HttpSettings none() {
    return new HttpSettings(Map.of(), Optional.empty(), Optional.empty(), Optional.empty());
  }

  public static HttpSettings bearer(Optional<Secret> token) {
    return new HttpSettings(Map.of(), token, Optional.empty(), Optional.empty());
  }

  /** How the credentials are named in a journal or a plan: places, never values. */
  public String describeAuth() {
    if (bearerToken.isPresent()) {
      return "bearer token from " + bearerToken.get().describe();
    }
    return basicAuth
        .map(
            auth ->
                "basic auth as "
                    + auth.username()
                    + ", password from "
                    + auth.password().describe())
        .orElse("none");
  }
}
