package dev.firedrill.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Toxiproxy-shaped admin API, the ttl that removes toxics with no call, the token, the metrics.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AdminApiTest {

  private static final String LATENCY =
      "{\"type\": \"latency\", \"toxicity\": 0.5, \"attributes\": {\"latency\": 200, \"jitter\": 20}, \"ttl\": \"5m\"}";
  private Upstream upstream;
  private FaultProxy proxy;
  private Admin admin;

  @BeforeEach
  void start() throws IOException {
    upstream = new Upstream();
    proxy = Proxies.http(upstream.url());
    admin = new Admin(proxy.adminUrl());
  }

  @AfterEach
  void stop() {
    proxy.close();
    upstream.close();
  }

  @Test
  void listsTheOneProxy() throws Exception {
    Admin.Answer answer = admin.get("/proxies");
    assertThat(answer.status()).isEqualTo(200);
    var payments = answer.json().path("payments");
    assertThat(payments.path("name").asText()).isEqualTo("payments");
    assertThat(payments.path("listen").asText())
        .isEqualTo("127.0.0.1:" + proxy.listenAddress().getPort());
    assertThat(payments.path("upstream").asText()).isEqualTo(upstream.url().toString());
    assertThat(payments.path("enabled").asBoolean()).isTrue();
    assertThat(payments.path("mode").asText()).isEqualTo("http");
    assertThat(admin.get("/proxies/payments").json().path("name").asText()).isEqualTo("payments");
    Admin.Answer other = admin.get("/proxies/orders/toxics");
    assertThat(other.status()).isEqualTo(404);
    assertThat(other.json().path("error").asText())
        .isEqualTo("proxy not found: orders (this process serves one proxy, payments)");
    assertThat(other.json().path("status").asInt()).isEqualTo(404);
  }

  @Test
  void addsGetsListsAndDeletesToxics() throws Exception {
    var added = admin.add(LATENCY);
    assertThat(added.path("name").asText()).isEqualTo("latency_downstream");
    assertThat(added.path("type").asText()).isEqualTo("latency");
    assertThat(added.path("stream").asText()).isEqualTo("downstream");
    assertThat(added.path("toxicity").asDouble()).isEqualTo(0.5);
    assertThat(added.path("attributes").path("latency").asLong()).isEqualTo(200);
    assertThat(added.path("attributes").path("jitter").asLong()).isEqualTo(20);
    assertThat(added.path("ttl").asText()).isEqualTo("5m");
    assertThat(added.path("ttl_remaining").asText()).isEqualTo("5m");

    var named =
        admin.add(
            "{\"name\": \"firedrill-x-0\", \"type\": \"error\", \"stream\": \"upstream\", \"ttl\": \"90s\"}");
    assertThat(named.path("attributes").path("status").asInt()).isEqualTo(503);
    assertThat(named.path("toxicity").asDouble()).isEqualTo(1.0);
    assertThat(named.path("ttl").asText()).isEqualTo("1m30s");

    Admin.Answer list = admin.get("/proxies/payments/toxics");
    assertThat(list.json()).hasSize(2);
    assertThat(list.json().get(0).path("name").asText()).isEqualTo("latency_downstream");
    assertThat(list.json().get(1).path("name").asText()).isEqualTo("firedrill-x-0");
    assertThat(admin.get("/proxies/payments/toxics/firedrill-x-0").json().path("type").asText())
        .isEqualTo("error");

    Admin.Answer duplicate = admin.post("/proxies/payments/toxics", LATENCY);
    assertThat(duplicate.status()).isEqualTo(409);
    assertThat(duplicate.json().path("error").asText())
        .isEqualTo("toxic latency_downstream already exists");

    assertThat(admin.delete("/proxies/payments/toxics/firedrill-x-0").status()).isEqualTo(204);
    Admin.Answer gone = admin.delete("/proxies/payments/toxics/firedrill-x-0");
    assertThat(gone.status()).isEqualTo(404);
    assertThat(gone.json().path("error").asText()).isEqualTo("toxic not found: firedrill-x-0");
    assertThat(admin.get("/proxies/payments/toxics/firedrill-x-0").status()).isEqualTo(404);
    assertThat(admin.get("/proxies/payments/toxics").json()).hasSize(1);
  }

  @Test
  void refusesAToxicWithoutTtlAndOtherBadToxics() throws Exception {
    Admin.Answer noTtl =
        admin.post(
            "/proxies/payments/toxics",
            "{\"type\": \"latency\", \"attributes\": {\"latency\": 100}}");
    assertThat(noTtl.status()).isEqualTo(400);
    assertThat(noTtl.json().path("status").asInt()).isEqualTo(400);
    assertThat(noTtl.json().path("error").asText())
        .isEqualTo(
            "ttl missing; this proxy removes every toxic by itself when its ttl ends: expected \"ttl\" such as \"5m\"");

    assertError(
        "{\"type\": \"slicer\", \"ttl\": \"1m\"}",
        "type \"slicer\" unknown; expected one of latency, error, reset, timeout, bandwidth");
    assertError(
        "{\"type\": \"latency\", \"attributes\": {\"latncy\": 5}, \"ttl\": \"1m\"}",
        "unknown key attributes.latncy; expected attributes.jitter, attributes.latency");
    assertError(
        "{\"type\": \"latency\", \"toxicity\": 1.5, \"ttl\": \"1m\"}",
        "toxicity 1.5 out of range; expected a number from 0 to 1");
    assertError(
        "{\"type\": \"error\", \"attributes\": {\"status\": 200}, \"ttl\": \"1m\"}",
        "attributes.status 200: expected a whole number of at least 400");
    assertError(
        "{\"type\": \"latency\", \"ttl\": \"5 minutes\"}",
        "ttl \"5 minutes\": expected a duration such as 30s, 5m or 1h30m");
    assertError(
        "{\"type\": \"latency\", \"stream\": \"sideways\", \"ttl\": \"1m\"}",
        "stream \"sideways\" unknown; expected upstream or downstream");
    assertError(
        "not json",
        "request body is not JSON: Unrecognized token 'not': was expecting"
            + " (JSON String, Number, Array, Object or token 'null', 'true' or 'false')");
    assertThat(admin.get("/proxies/payments/toxics").json()).isEmpty();
  }

  private void assertError(String body, String message) throws Exception {
    Admin.Answer answer = admin.post("/proxies/payments/toxics", body);
    assertThat(answer.status()).as(body).isEqualTo(400);
    assertThat(answer.json().path("error").asText()).as(body).isEqualTo(message);
  }

  @Test
  void theTtlRemovesAToxicWithNoCall() throws Exception {
    admin.add(
        "{\"name\": \"short\", \"type\": \"latency\", \"attributes\": {\"latency\": 10}, \"ttl\": \"1s\"}");
    admin.add(
        "{\"name\": \"longer\", \"type\": \"latency\", \"attributes\": {\"latency\": 10}, \"ttl\": \"5s\"}");
    long added = System.nanoTime();
    long first =
        admin.get("/proxies/payments/toxics/longer").json().path("ttl_remaining_ms").asLong();
    assertThat(first).isBetween(4500L, 5000L);
    assertThat(admin.get("/proxies/payments/toxics/longer").json().path("ttl_remaining").asText())
        .isEqualTo("5s");

    int status = 200;
    while (status == 200 && System.nanoTime() - added < 3_000_000_000L) {
      Thread.sleep(20);
      status = admin.get("/proxies/payments/toxics/short").status();
    }
    double goneAfter = (System.nanoTime() - added) / 1e9;
    assertThat(status).isEqualTo(404);
    assertThat(goneAfter).as("seconds until the 1s toxic was gone").isBetween(0.9, 1.5);
    // The longer toxic counts down in whole seconds, rounded up: past its first second it reads 4s.
    // The short one may go a little before a full second has passed, so make sure one has.
    long sinceAdded = System.nanoTime() - added;
    if (sinceAdded < 1_100_000_000L) {
      Thread.sleep((1_100_000_000L - sinceAdded) / 1_000_000 + 1);
    }

    var later = admin.get("/proxies/payments/toxics/longer").json();
    assertThat(later.path("ttl_remaining_ms").asLong()).isLessThan(first - 800);
    assertThat(later.path("ttl_remaining").asText()).isEqualTo("4s");
    assertThat(scrape())
        .contains("firedrill_proxy_toxics_expired_total 1.0")
        .contains("firedrill_proxy_toxics_active{type=\"latency\"} 1.0");
  }

  @Test
  void metricsCountRequestsByToxicAndActiveToxicsByType() throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    HttpRequest ok =
        HttpRequest.newBuilder(proxy.url().resolve("/ok")).timeout(Duration.ofSeconds(5)).build();
    client.send(ok, HttpResponse.BodyHandlers.ofString());
    admin.add("{\"type\": \"error\", \"attributes\": {\"status\": 500}, \"ttl\": \"1m\"}");
    client.send(ok, HttpResponse.BodyHandlers.ofString());
    client.send(ok, HttpResponse.BodyHandlers.ofString());

    assertThat(scrape())
        .contains("firedrill_proxy_requests_total{toxic=\"none\"} 1.0")
        .contains("firedrill_proxy_requests_total{toxic=\"error\"} 2.0")
        .contains("firedrill_proxy_toxics_active{type=\"error\"} 1.0")
        .contains("firedrill_proxy_toxics_active{type=\"latency\"} 0.0")
        .contains("firedrill_proxy_toxics_expired_total 0.0");
  }

  private String scrape() throws Exception {
    URI metrics =
        URI.create(
            "http://127.0.0.1:" + proxy.metricsAddress().orElseThrow().getPort() + "/metrics");
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Test
  void theAdminTokenIsEnforced() throws Exception {
    try (FaultProxy guarded =
        Proxies.start(upstream.url(), ProxyConfig.Mode.HTTP, "s3cret-value")) {
      Admin.Answer without = new Admin(guarded.adminUrl()).get("/proxies");
      assertThat(without.status()).isEqualTo(401);
      assertThat(without.json().path("error").asText())
          .isEqualTo("missing or wrong bearer token (expected Authorization: Bearer TOKEN)");
      assertThat(
              new Admin(guarded.adminUrl(), "wrong")
                  .post("/proxies/payments/toxics", LATENCY)
                  .status())
          .isEqualTo(401);
      assertThat(guarded.toxics().active()).isEmpty();

      Admin authorized = new Admin(guarded.adminUrl(), "s3cret-value");
      assertThat(authorized.get("/proxies").status()).isEqualTo(200);
      authorized.add(LATENCY);
      assertThat(guarded.toxics().active()).hasSize(1);
      assertThat(guarded.toString() + guarded.adminUrl()).doesNotContain("s3cret");
    }
  }
}
