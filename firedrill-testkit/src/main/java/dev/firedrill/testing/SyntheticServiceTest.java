package dev.firedrill.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SyntheticServiceTest {

  private final AtomicLong nanos = new AtomicLong();

  private void advanceSeconds(double seconds) {
    nanos.addAndGet((long) (seconds * 1e9));
  }

  @Test
  void countersIntegrateTheRatesOverTime() {
    try (SyntheticService exporter = SyntheticService.start(nanos::get)) {
      exporter.setRequestRate(10);
      exporter.setErrorRatio(0.5);
      advanceSeconds(2); // 20 requests: 10 ok, 10 errors, all at 50ms
      exporter.setLatency(0.3);
      exporter.setErrorRatio(0);
      advanceSeconds(1); // 10 more ok at 300ms
      String text = exporter.exposition();
      assertThat(text)
          .contains("# TYPE demo_requests_total counter\n")
          .contains("demo_requests_total{code=\"200\"} 20\n")
          .contains("demo_requests_total{code=\"500\"} 10\n")
          .contains("# TYPE demo_request_duration_seconds histogram\n")
          .contains("demo_request_duration_seconds_bucket{le=\"0.025\"} 0\n")
          .contains("demo_request_duration_seconds_bucket{le=\"0.05\"} 20\n")
          .contains("demo_request_duration_seconds_bucket{le=\"0.25\"} 20\n")
          .contains("demo_request_duration_seconds_bucket{le=\"0.5\"} 30\n")
          .contains("demo_request_duration_seconds_bucket{le=\"10\"} 30\n")
          .contains("demo_request_duration_seconds_bucket{le=\"+Inf\"} 30\n")
          .contains("demo_request_duration_seconds_sum 4\n")
          .contains("demo_request_duration_seconds_count 30\n");
    }
  }

  @Test
  void hideAndShowAFamily() {
    try (SyntheticService exporter = SyntheticService.start(nanos::get)) {
      exporter.hide(SyntheticService.REQUESTS);
      assertThat(exporter.exposition())
          .doesNotContain("demo_requests_total")
          .contains("demo_request_duration_seconds_count");
      exporter.show(SyntheticService.REQUESTS);
      assertThat(exporter.exposition()).contains("demo_requests_total{code=\"500\"}");
      assertThatThrownBy(() -> exporter.hide("nope"))
          .hasMessage(
              "unknown metric \"nope\" (expected demo_requests_total or demo_request_duration_seconds)");
      assertThatThrownBy(() -> exporter.setErrorRatio(1.5))
          .hasMessage("error ratio 1.5 is not usable (expected a number from 0 to 1)");
    }
  }

  @Test
  void servesMetricsOverHttpAndCanFailScrapes() throws Exception {
    try (SyntheticService exporter = SyntheticService.start()) {
      HttpClient http = HttpClient.newHttpClient();
      HttpRequest scrape =
          HttpRequest.newBuilder(URI.create("http://" + exporter.address() + "/metrics")).build();
      HttpResponse<String> response = http.send(scrape, HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.headers().firstValue("Content-Type"))
          .hasValue("text/plain; version=0.0.4; charset=utf-8");
      assertThat(response.body()).contains("demo_requests_total{code=\"200\"}");
      exporter.setScrapeFailing(true);
      assertThat(http.send(scrape, HttpResponse.BodyHandlers.ofString()).statusCode())
          .isEqualTo(500);
      assertThat(exporter.scrapes()).isEqualTo(2);
      assertThat(exporter.address()).startsWith("127.0.0.1:");
    }
  }
}
