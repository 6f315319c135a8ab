package dev.firedrill.spring.chaosmonkey;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.fault.FaultException;
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
 * Chaos Monkey's actuator endpoint over the JDK's HTTP client. Failures are one line naming the
 * URL; the token goes in the Authorization header only, never in a message.
 */
final class ActuatorClient {

  static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final ObjectMapper JSON = Json.MAPPER;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(TIMEOUT).version(HttpClient.Version.HTTP_1_1).build();

  /** What the actuator answered. */
  record Answer(int status, String body) {

    boolean ok() {
      return status >= 200 && status < 300;
    }

    /** The body as JSON; null when it is not JSON. */
    JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        return null;
      }
    }

    /** The status with Spring's error message or Chaos Monkey's own text, on one short line. */
    String describe() {
      JsonNode node = json();
      String said =
          node != null && node.hasNonNull("message") && !node.get("message").asText().isBlank()
              ? node.get("message").asText()
              : node != null && node.hasNonNull("error")
                  ? node.get("error").asText()
                  : node == null ? body.strip() : "";
      said = said.replaceAll("\\s+", " ");
      if (said.length() > 200) {
        said = said.substring(0, 197) + "...";
      }
      return said.isEmpty() ? Integer.toString(status) : status + " " + said;
    }
  }

  private final String kind;
  private final Optional<String> token;

  ActuatorClient(String kind, Optional<String> token) {
    this.kind = kind;
    this.token = token;
  }

  Answer get(URI url) throws FaultException {
    return send("GET", url, HttpRequest.newBuilder(url).GET());
  }

  /** POST with a JSON body, or none when {@code json} is null. */
  Answer post(URI url, String json) throws FaultException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(url)
            .POST(
                json == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(json));
    if (json != null) {
      request.header("Content-Type", "application/json");
    }
    return send("POST", url, request);
  }

  private Answer send(String method, URI url, HttpRequest.Builder request) throws FaultException {
    request.timeout(TIMEOUT).header("Accept", "application/json");
    token.ifPresent(value -> request.header("Authorization", "Bearer " + value));
    Propagation.injectCurrent(request);
    try {
      HttpResponse<String> response =
          HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Answer(response.statusCode(), response.body());
    } catch (ConnectException e) {
      throw new FaultException(
          kind + ": cannot reach the actuator at " + url + " (connection refused)", e);
    } catch (HttpTimeoutException e) {
      throw new FaultException(
          kind
              + ": the actuator at "
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
              + ": cannot reach the actuator at "
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
