package dev.firedrill.alerting.lint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.time.Durations;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PromQlTest {

  @Test
  void findsMetricNamesButNotFunctionsKeywordsOrLabels() throws Exception {
    PromQl.Scan scan =
        PromQl.scan(
            """
        sum by (service, le) (rate(http_server_request_duration_seconds_bucket{service="checkout",le!="+Inf"}[5m]))
          / on (service) group_left(team) sum without (route) (rate(http_server_requests_total[5m] offset 1h))
          > bool 0.5 and max(up) by (job) == 1 unless ignoring(code) slo:x:ratio_rate5m # comment metric_in_comment
        """);
    assertThat(scan.metrics())
        .containsExactlyInAnyOrder(
            "http_server_request_duration_seconds_bucket",
            "http_server_requests_total",
            "up",
            "slo:x:ratio_rate5m");
    assertThat(scan.ranges())
        .extracting(PromQl.Range::range)
        .containsExactly(Duration.ofMinutes(5), Duration.ofMinutes(5));
    assertThat(scan.boolComparisons()).isEqualTo(1);
    assertThat(scan.filterComparisons()).isEqualTo(1);
    assertThat(scan.callsAbsent()).isFalse();
  }

  @Test
  void labelMatchersAreNotComparisonsAndNameMatchersAreNames() throws Exception {
    PromQl.Scan scan = PromQl.scan("{__name__=\"orders_total\", result!=\"ok\", code=~\"5..\"}");
    assertThat(scan.metrics()).containsExactly("orders_total");
    assertThat(scan.filterComparisons()).isZero();
  }

  @Test
  void absentArgumentsAreSeparate() throws Exception {
    PromQl.Scan scan = PromQl.scan("absent(a{job=\"x\"}) or absent_over_time(b[1h:1m]) or c > 0");
    assertThat(scan.absentMetrics()).containsExactlyInAnyOrder("a", "b");
    assertThat(scan.metrics()).containsExactly("c");
    assertThat(scan.ranges()).containsExactly(new PromQl.Range("1h:1m", Duration.ofHours(1)));
    assertThat(scan.callsAbsent()).isTrue();
  }

  @Test
  void numbersDurationsInfAndNanAreNotNames() throws Exception {
    PromQl.Scan scan =
        PromQl.scan(
            "x > 1e-3 and y < Inf and z != NaN and w offset 5m > 0x1F and vector(1) > 14.4 * (1 - 0.999)");
    assertThat(scan.metrics()).containsExactlyInAnyOrder("x", "y", "z", "w");
    assertThat(scan.filterComparisons()).isEqualTo(5);
  }

  @Test
  void unbalancedInputIsRefused() {
    assertThatThrownBy(() -> PromQl.scan("rate(x[5m]")).isInstanceOf(PromQl.Unreadable.class);
    assertThatThrownBy(() -> PromQl.scan("x{a=\"b}")).isInstanceOf(PromQl.Unreadable.class);
    assertThatThrownBy(() -> PromQl.scan("rate(x[$__rate_interval])"))
        .hasMessage("1:8: parse error: unexpected character: '$'");
  }

  @Test
  void prometheus3SyntaxIsRead() throws Exception {
    PromQl.Scan scan =
        PromQl.scan(
            "sum(rate({\"http.requests\", \"service.name\"=\"checkout\"}[5m * 2] anchored)) "
                + "/ sum(rate(requests[300] smoothed)) > fill(0) max_over_time(x[1h:30s] offset (1h + 5m))");
    assertThat(scan.metrics()).containsExactlyInAnyOrder("http.requests", "requests", "x");
    assertThat(scan.ranges())
        .containsExactly(
            new PromQl.Range("5m * 2", Duration.ofMinutes(10)),
            new PromQl.Range("300", Duration.ofMinutes(5)),
            new PromQl.Range("1h:30s", Duration.ofHours(1)));
    assertThat(scan.filterComparisons()).isEqualTo(1);
    assertThat(PromQl.scan("rate(x[step() * 4])").ranges()).isEmpty();
  }

  @Test
  void newWarningsAreFound() throws Exception {
    PromQl.Scan scan =
        PromQl.scan(
            "holt_winters(x{le=\"1\", quantile!=\"0\", a=\"2\"}[10m], 0.5, 0.5) > 0 "
                + "and y{le=\"1.0\"} and max_over_time(z[5m:5m]) > 1 and max_over_time(w[1m:]) > 1");
    assertThat(scan.callsHoltWinters()).isTrue();
    assertThat(scan.wholeNumberBucketMatchers()).containsExactly("le=\"1\"", "quantile!=\"0\"");
    assertThat(scan.subqueries())
        .containsExactly(
            new PromQl.Subquery("5m:5m", Duration.ofMinutes(5), Duration.ofMinutes(5)),
            new PromQl.Subquery("1m:", Duration.ofMinutes(1), null));
  }

  @Test
  void durations() {
    assertThat(Durations.parseOrNull("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Durations.parseOrNull("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parseOrNull("3d")).isEqualTo(Duration.ofDays(3));
    assertThat(Durations.parseOrNull("5 m")).isNull();
    assertThat(Durations.format(Duration.ofSeconds(4))).isEqualTo("4s");
    assertThat(Durations.format(Duration.ofMinutes(90))).isEqualTo("1h30m");
  }
}
