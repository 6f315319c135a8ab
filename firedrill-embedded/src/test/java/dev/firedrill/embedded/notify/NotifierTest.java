package dev.firedrill.embedded.notify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.testing.StubHttpServer;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NotifierTest {

  private static final Instant STARTS = Instant.parse("2026-11-30T00:00:07.250Z");

  private static OutgoingAlert alert(String name) {
    return new OutgoingAlert(
        Map.of("alertname", name, "job", "api"),
        Map.of("summary", "api is down"),
        STARTS,
        STARTS.plusSeconds(240),
        "http://127.0.0.1:9090/graph?g0.expr=up+%3D%3D+0&g0.tab=1");
  }

  private static Notifier.Options options(StubHttpServer stub, Duration timeout, int capacity) {
    return new Notifier.Options(List.of(stub.url("")), timeout, capacity, 256, Map.of());
  }

  @Test
  void postsTheJsonArrayAlertmanagerTakesToApiV2Alerts() throws Exception {
    try (StubHttpServer stub = StubHttpServer.start().respondJson(200, "");
        Notifier notifier = Notifier.start(options(stub, Duration.ofSeconds(5), 10))) {
      notifier.send(List.of(alert("Down")));
      assertThat(notifier.flush(Duration.ofSeconds(10))).isTrue();
      StubHttpServer.Request request = stub.lastRequest();
      assertThat(request.method()).isEqualTo("POST");
      assertThat(request.path()).isEqualTo("/api/v2/alerts");
      assertThat(request.headers().get("content-type")).isEqualTo("application/json");
      assertThat(request.body())
          .isEqualTo(
              "[{\"labels\":{\"alertname\":\"Down\",\"job\":\"api\"},"
                  + "\"annotations\":{\"summary\":\"api is down\"},\"startsAt\":\"2026-11-30T00:00:07.250Z\","
                  + "\"endsAt\":\"2026-11-30T00:04:07.250Z\","
                  + "\"generatorURL\":\"http://127.0.0.1:9090/graph?g0.expr=up+%3D%3D+0&g0.tab=1\"}]");
      assertThat(notifier.sentCount()).isEqualTo(1);
      assertThat(notifier.errorCount()).isZero();
    }
  }

  @Test
  void externalLabelsAreAddedWhereTheAlertHasNoneOfThatName() throws Exception {
    try (StubHttpServer stub = StubHttpServer.start().respondJson(200, "");
        Notifier notifier =
            Notifier.start(
                new Notifier.Options(
                    List.of(stub.url("/")),
                    Duration.ofSeconds(5),
                    10,
                    256,
                    Map.of("cluster", "lab", "job", "external")))) {
      notifier.send(List.of(alert("Down")));
      assertThat(notifier.flush(Duration.ofSeconds(10))).isTrue();
      assertThat(stub.lastRequest().path()).isEqualTo("/api/v2/alerts");
      assertThat(stub.lastRequest().body())
          .startsWith("[{\"labels\":{\"alertname\":\"Down\",\"cluster\":\"lab\",\"job\":\"api\"},");
    }
  }

  @Test
  void aFullQueueDropsItsOldestAlertsAndCountsThem() throws Exception {
    try (StubHttpServer stub = StubHttpServer.start().respondJson(200, "");
        Notifier notifier = Notifier.paused(options(stub, Duration.ofSeconds(5), 2))) {
      notifier.send(List.of(alert("A")));
      notifier.send(List.of(alert("B"), alert("C")));
      notifier.send(List.of(alert("D"), alert("E"), alert("F")));
      assertThat(notifier.droppedCount()).isEqualTo(4);
      notifier.startSending();
      assertThat(notifier.flush(Duration.ofSeconds(10))).isTrue();
      assertThat(stub.requests()).hasSize(1);
      assertThat(stub.lastRequest().body())
          .contains("\"alertname\":\"E\"")
          .contains("\"alertname\":\"F\"")
          .doesNotContain("\"alertname\":\"D\"");
    }
  }

  @Test
  void aHangingAlertmanagerTimesOutWithoutHoldingUpSend() throws Exception {
    try (StubHttpServer stub = StubHttpServer.start().hang();
        Notifier notifier = Notifier.start(options(stub, Duration.ofMillis(300), 10))) {
      notifier.send(List.of(alert("A"), alert("B")));
      assertThat(notifier.flush(Duration.ofSeconds(20))).isTrue();
      assertThat(notifier.errorCount()).isEqualTo(1);
      assertThat(notifier.sentCount()).isZero();
      assertThat(notifier.lastError())
          .isEqualTo(
              "sending alerts to "
                  + stub.url("/api/v2/alerts")
                  + " failed: HttpTimeoutException: request timed out");
    }
  }

  @Test
  void aRefusedPostIsAnErrorNamingTheStatus() throws Exception {
    try (StubHttpServer stub = StubHttpServer.start().respondJson(400, "{\"code\":400}");
        Notifier notifier = Notifier.start(options(stub, Duration.ofSeconds(5), 10))) {
      notifier.send(List.of(alert("A")));
      assertThat(notifier.flush(Duration.ofSeconds(10))).isTrue();
      assertThat(notifier.lastError())
          .isEqualTo(
              "sending alerts to "
                  + stub.url("/api/v2/alerts")
                  + " failed: bad response status 400");
    }
  }

  @Test
  void closeDropsWhatIsQueuedAndReturns() {
    URI nowhere = URI.create("http://127.0.0.1:" + StubHttpServer.closedPort());
    Notifier notifier =
        Notifier.paused(
            new Notifier.Options(List.of(nowhere), Duration.ofSeconds(1), 10, 256, Map.of()));
    notifier.send(List.of(alert("A"), alert("B")));
    notifier.close();
    assertThat(notifier.droppedCount()).isEqualTo(2);
    notifier.send(List.of(alert("C")));
    assertThat(notifier.droppedCount()).isEqualTo(3);
  }
}
