package dev.firedrill.embedded.alertmanager.webhook;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Webhooks over HTTP with the JDK's client, a POST of {@code application/json} as Alertmanager
 * sends it.
 */
public final class HttpSender implements Sender {

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  private static final int BODY_KEPT = 1024;

  private final HttpClient client =
      HttpClient.newBuilder()
          .connectTimeout(CONNECT_TIMEOUT)
          .followRedirects(HttpClient.Redirect.NORMAL)
          .build();

  @Override
  public SendResult send(URI url, byte[] json, Duration timeout) throws InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(url)
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .header("User-Agent", "firedrill-embedded-alertmanager")
            .POST(HttpRequest.BodyPublishers.ofByteArray(json))
            .build();
    try {
      HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
      String body = response.body();
      return SendResult.ofStatus(
          response.statusCode(), body.length() > BODY_KEPT ? body.substring(0, BODY_KEPT) : body);
    } catch (IOException e) {
      return new SendResult.Retry(
          "POST " + url + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
    }
  }
}
