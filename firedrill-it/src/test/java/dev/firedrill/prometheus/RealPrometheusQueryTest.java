package dev.firedrill.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.testing.DemoStack;
import dev.firedrill.testing.RealPrometheus;
import dev.firedrill.testing.Results;
import dev.firedrill.testing.SyntheticService;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The client against the real prometheus binary scraping a {@link SyntheticService}. One instance
 * per class.
 */
class RealPrometheusQueryTest {

  @RegisterExtension static final DemoStack stack = new DemoStack();

  private static final Duration WAIT = Duration.ofSeconds(20);

  private static RealPrometheus prometheus() {
    return stack.prometheus();
  }

  private static String server() {
    return prometheus().url().toString();
  }

  @Test
  void vectorWithLabels() {
    QueryResult result =
        prometheus()
            .awaitQuery(
                "demo_requests_total",
                r -> r instanceof QueryResult.Vector v && v.samples().size() == 2,
                WAIT);
    QueryResult.Vector vector = (QueryResult.Vector) result;
    assertThat(vector.samples())
        .extracting(QueryResult.Sample::labels)
        .containsExactlyInAnyOrder(
            Map.of(
                "__name__",
                "demo_requests_total",
                "code",
                "200",
                "instance",
                stack.exporter().address(),
                "job",
                RealPrometheus.JOB),
            Map.of(
                "__name__",
                "demo_requests_total",
                "code",
                "500",
                "instance",
                stack.exporter().address(),
                "job",
                RealPrometheus.JOB));
    assertThat(vector.samples().get(0).at())
        .isBetween(Instant.now().minusSeconds(10), Instant.now().plusSeconds(10));
  }

  @Test
  void queryAtAGivenTimeEvaluatesThere() throws Exception {
    Instant at = Instant.now().minusSeconds(3).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    QueryResult result = prometheus().client().query("time()", at);
    assertThat(result).isEqualTo(new QueryResult.Scalar(at, at.toEpochMilli() / 1000.0));

    prometheus().awaitQuery("demo_requests_total{code=\"200\"}", Results.nonEmptyVector(), WAIT);
    Instant beforeAnyScrape = Instant.now().minus(Duration.ofHours(1));
    QueryResult past = prometheus().client().query("demo_requests_total", beforeAnyScrape);
    assertThat(Results.emptyVector().test(past)).as("an hour before any scrape: %s", past).isTrue();
  }

  @Test
  void scalarTextAndMatrix() throws Exception {
    QueryResult scalar = prometheus().client().query("scalar(vector(2.5))");
    assertThat(scalar).isInstanceOf(QueryResult.Scalar.class);
    assertThat(((QueryResult.Scalar) scalar).value()).isEqualTo(2.5);
    assertThat(((QueryResult.Scalar) scalar).at())
        .isBetween(Instant.now().minusSeconds(10), Instant.now().plusSeconds(10));

    assertThat(prometheus().client().query("\"hello\""))
        .isInstanceOfSatisfying(
            QueryResult.Text.class, text -> assertThat(text.value()).isEqualTo("hello"));

    prometheus().awaitQuery("demo_requests_total{code=\"200\"}", Results.nonEmptyVector(), WAIT);
    assertThat(prometheus().client().query("demo_requests_total{code=\"200\"}[10s]"))
        .isInstanceOfSatisfying(
            QueryResult.Matrix.class,
            matrix ->
                assertThat(matrix.series())
                    .singleElement()
                    .satisfies(series -> assertThat(series.points()).isNotEmpty()));
  }

  @Test
  void specialValues() throws Exception {
    assertThat(value("scalar(vector(1)) / 0")).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(value("-1 / 0")).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(value("0 / 0")).isNaN();
    assertThat(value("vector(0) / 0")).isNaN();
  }

  private static double value(String promql) throws PrometheusException {
    return Results.value(prometheus().client().query(promql)).orElseThrow();
  }

  @Test
  void parseErrorIsOneLineNamingTheQueryAndPrometheussMessage() {
    assertThatThrownBy(() -> prometheus().client().query("rate(x[5m]"))
        .isInstanceOf(PrometheusException.class)
        .hasMessageStartingWith(
            "Prometheus at " + server() + " refused query \"rate(x[5m]\": bad_data: ")
        .hasMessageContaining("parse error")
        .hasMessageNotContaining("\n");
  }

  @Test
  void executionErrorIsRefusedWithPrometheussErrorType() {
    prometheus()
        .awaitQuery(
            "demo_requests_total",
            r -> r instanceof QueryResult.Vector v && v.samples().size() == 2,
            WAIT);
    String query = "demo_requests_total + on() demo_requests_total";
    assertThatThrownBy(() -> prometheus().client().query(query))
        .isInstanceOf(PrometheusException.class)
        .hasMessageStartingWith(
            "Prometheus at "
                + server()
                + " refused query \""
                + query
                + "\": execution: found duplicate series for the match group {} on the right hand-side of the operation")
        .hasMessageNotContaining("\n");
  }

  @Test
  void errorRatioFollowsTheExporter() {
    stack.exporter().setErrorRatio(0.25);
    try {
      prometheus().awaitQuery(SyntheticService.ERROR_RATIO, Results.valueNear(0.25, 0.01), WAIT);
    } finally {
      stack.exporter().setErrorRatio(0);
    }
    prometheus().awaitQuery(SyntheticService.ERROR_RATIO, Results.valueNear(0, 0.001), WAIT);
  }

  @Test
  void latencyAndRateFollowTheExporter() {
    stack.exporter().setLatency(0.3);
    try {
      // 0.3s falls in the (0.25, 0.5] bucket; the 99th percentile interpolates inside it.
      prometheus()
          .awaitQuery(
              SyntheticService.P99_LATENCY, Results.valueMatches(v -> v > 0.25 && v <= 0.5), WAIT);
    } finally {
      stack.exporter().setLatency(0.05);
    }
    prometheus().awaitQuery(SyntheticService.REQUEST_RATE, Results.valueNear(10, 1), WAIT);
  }

  @Test
  void hiddenSeriesBecomesAnEmptyVector() {
    String query = "demo_request_duration_seconds_count";
    prometheus().awaitQuery(query, Results.nonEmptyVector(), WAIT);
    stack.exporter().hide(SyntheticService.DURATION);
    try {
      prometheus().awaitQuery(query, Results.emptyVector(), WAIT);
    } finally {
      stack.exporter().show(SyntheticService.DURATION);
    }
    prometheus().awaitQuery(query, Results.nonEmptyVector(), WAIT);
  }
}
