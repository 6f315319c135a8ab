package dev.firedrill.fault;

import dev.firedrill.http.BoundedExchange;
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
 * One HTTP exchange with an injector's API (a fault proxy's admin API, an application's actuator),
 * for the fault kinds of every module: bounded by {@link #TIMEOUT}, the token in the Authorization
 * header only, the trace context passed on, and each failure one line naming the API and the URL.
 */
public final class InjectorHttp {

  public static final Duration TIMEOUT = Duration.ofSeconds(5);

  /** An injector's answers are a few lines of JSON. */
  private static final int MAX_BYTES = 1024 * 1024;

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(TIMEOUT).version(HttpClient.Version.HTTP_1_1).build();

  /** What the API answered: its status and body. */
  public record Reply(int status, String body) {}

  private final String kind;
  private final String api;
  private final Optional<String> token;

  /**
   * @param kind the fault kind, which leads every message
   * @param api what the messages call the far end, such as "the proxy admin API"
   */
  public InjectorHttp(String kind, String api, Optional<String> token) {
    this.kind = kind;
    this.api = api;
    this.token = token;
  }

  /**
   * {@code body} with the token replaced: an API that refuses it may quote it (an error page
   * echoing the Authorization header), and the body reaches messages, the journal and the console.
   * Before every cut, since a token cut in half escapes its redaction.
   */
  private String redact(String body) {
    if (body == null || token.isEmpty() || token.get().isBlank()) {
      return body;
    }
    return body.replace(token.get(), "<redacted>");
  }

  public Reply send(String method, URI url, HttpRequest.Builder request) throws FaultException {
    request.timeout(TIMEOUT);
    token.ifPresent(value -> request.header("Authorization", "Bearer " + value));
    Propagation.injectCurrent(request);
    try {
      // Bounded to the body's last byte: an API that sends its headers and then no end of body
      // must not hold an injection or a rollback.
      HttpResponse<String> response =
          BoundedExchange.send(HTTP, request.build(), TIMEOUT, MAX_BYTES);
      return new Reply(response.statusCode(), redact(response.body()));
    } catch (ConnectException e) {
      throw new FaultException(
          kind
              + ": cannot reach "
              + api
              + " at "
              + url
              + " ("
              + java.util.Objects.requireNonNullElse(
                  dev.firedrill.http.ConnectFailures.reason(e), "connection refused")
              + ")",
          e);
    } catch (HttpTimeoutException e) {
      throw new FaultException(
          kind
              + ": "
              + api
              + " at "
              + url
              + " did not answer "
              + method
              + " within "
              + TIMEOUT.toSeconds()
              + "s",
          e);
    } catch (BoundedExchange.TooLarge e) {
      throw new FaultException(
          kind + ": " + api + " at " + url + " answered " + method + " with a " + e.getMessage(),
          e);
    } catch (IOException e) {
      throw new FaultException(
          kind
              + ": cannot reach "
              + api
              + " at "
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
