package dev.firedrill.fault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Optional;

/**
 * A small client of a Toxiproxy-shaped admin API (firedrill's fault proxy, or Toxiproxy itself).
 * Failures are one line naming the URL; the token never appears in them.
 */
final class ProxyAdminClient {

  static final Duration TIMEOUT = InjectorHttp.TIMEOUT;
  static final String USER_AGENT = "firedrill";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the admin API answered: its status and body. */
  record Answer(int status, String body) {
    /** The {@code error} of a JSON error body, or the status alone. */
    String describe() {
      try {
        JsonNode node = JSON.readTree(body);
        if (node != null && node.hasNonNull("error")) {
          return status + " " + node.get("error").asText();
        }
      } catch (IOException e) {
        // not JSON: the status says enough
      }
      return Integer.toString(status);
    }
  }

  private final InjectorHttp http;

  ProxyAdminClient(String kind, Optional<String> token) {
    this.http = new InjectorHttp(kind, "the proxy admin API", token);
  }

  Answer get(URI url) throws FaultException {
    return send("GET", url, HttpRequest.newBuilder(url).GET());
  }

  Answer post(URI url, String json) throws FaultException {
    return send(
        "POST",
        url,
        HttpRequest.newBuilder(url)
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .header("Content-Type", "application/json"));
  }

  Answer delete(URI url) throws FaultException {
    return send("DELETE", url, HttpRequest.newBuilder(url).DELETE());
  }

  private Answer send(String method, URI url, HttpRequest.Builder request) throws FaultException {
    // Toxiproxy answers 403 to a browser's User-Agent (against cross-site requests): say who calls.
    request.header("User-Agent", USER_AGENT);
    InjectorHttp.Reply reply = http.send(method, url, request);
    return new Answer(reply.status(), reply.body());
  }
}
