package dev.firedrill.fault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.http.Propagation;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;

/**
 * A small client of a Toxiproxy-shaped admin API (firedrill's fault proxy, or Toxiproxy itself).
 * Failures are one line naming the URL; the token never appears in them.
 */
final class ProxyAdminClient {

  static final Duration TIMEOUT = Duration.ofSeconds(5);
  static final String USER_AGENT = "firedrill";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(TIMEOUT).version(HttpClient.Version.HTTP_1_1).build();

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

  private final String kind;
  private final Optional<String> token;

  ProxyAdminClient(String kind, Optional<String> token) {
    this.kind = kind;
    this.token = token;
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
    request.timeout(TIMEOUT).header("User-Agent", USER_AGENT);
    token.ifPresent(value -> request.header("Authorization", "Bearer " + value));
    Propagation.injectCurrent(request);
    try {
      HttpResponse<String> response =
          HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Answer(response.statusCode(), response.body());
    } catch (ConnectException e) {
      throw new FaultException(
          kind + ": cannot reach the proxy admin API at " + url + " (connection refused)", e);
    } catch (HttpTimeoutException e) {
      throw new FaultException(
          kind
              + ": the proxy admin API at "
              + url
              + " did not answer "
              + method
              + " within "
              + TIMEOUT.toSeconds()
              + "s",
          e);
    } catch (IOException e) {
      throw new FaultException(
          kind
              + ": cannot reach the proxy admin API at "
              + url
              + " ("
              + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
              + ")",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FaultException(kind + ": interrupted during " + method + " " + url, e);
    }
  }
}
