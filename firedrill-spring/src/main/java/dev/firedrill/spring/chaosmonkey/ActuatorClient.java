package dev.firedrill.spring.chaosmonkey;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.InjectorHttp;
import dev.firedrill.format.ControlChars;
import dev.firedrill.format.Shorten;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Optional;

/**
 * Chaos Monkey's actuator endpoint over the JDK's HTTP client. Failures are one line naming the
 * URL; the token goes in the Authorization header only, never in a message.
 */
final class ActuatorClient {

  static final Duration TIMEOUT = InjectorHttp.TIMEOUT;
  private static final ObjectMapper JSON = Json.MAPPER;

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
      // The body comes redacted (InjectorHttp); quoted and cut on code points here.
      said = Shorten.cut(ControlChars.quote(said.replaceAll("\\s+", " ")), 200);
      return said.isEmpty() ? Integer.toString(status) : status + " " + said;
    }
  }

  private final InjectorHttp http;

  ActuatorClient(String kind, Optional<String> token) {
    this.http = new InjectorHttp(kind, "the actuator", token);
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
    request.header("Accept", "application/json");
    InjectorHttp.Reply reply = http.send(method, url, request);
    return new Answer(reply.status(), reply.body());
  }
}
