package dev.firedrill.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A test client of the admin API. */
record Admin(URI base, String token) {

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private static final ObjectMapper JSON = new ObjectMapper();

  Admin(URI base) {
    this(base, null);
  }

  record Answer(int status, JsonNode json, String text) {}

  Answer get(String path) throws Exception {
    return send(builder(path).GET());
  }

  Answer post(String path, String body) throws Exception {
    return send(
        builder(path)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .header("Content-Type", "application/json"));
  }

  Answer delete(String path) throws Exception {
    return send(builder(path).DELETE());
  }

  /** Adds a toxic to the proxy "payments" and checks that it was accepted. */
  JsonNode add(String json) throws Exception {
    Answer answer = post("/proxies/payments/toxics", json);
    if (answer.status() != 200) {
      throw new AssertionError(
          "adding " + json + " answered " + answer.status() + ": " + answer.text());
    }
    return answer.json();
  }

  private HttpRequest.Builder builder(String path) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(5));
    if (token != null) {
      builder.header("Authorization", "Bearer " + token);
    }
    return builder;
  }

  private static Answer send(HttpRequest.Builder request) throws Exception {
    HttpResponse<String> response =
        CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    String text = response.body();
    JsonNode json = text == null || text.isEmpty() ? null : JSON.readTree(text);
    return new Answer(response.statusCode(), json, text);
  }
}
