package dev.firedrill.promql.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.promql.model.LabelSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The {@code __type__} and {@code __unit__} labels (Prometheus 3's {@code type-and-unit-labels}
 * feature): Prometheus 3 drops them wherever it drops the metric name; Prometheus 2 knows them as
 * ordinary labels.
 */
class TypeAndUnitLabelsTest {

  private static final LabelSet REQUESTS =
      LabelSet.of(
          "__name__",
          "http_requests_total",
          "__type__",
          "counter",
          "__unit__",
          "request",
          "job",
          "api",
          "instance",
          "0");

  private final Exprs.Store store = new Exprs.Store().series(REQUESTS, 60_000, 0.0, 60.0, 120.0);

  private LabelSet labelsOf(String query, Compat compat) {
    Value.Vector v = (Value.Vector) Exprs.engine(store, compat).instant(query, 120_000);
    assertThat(v.samples()).as(query).hasSize(1);
    return v.samples().get(0).labels();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "-http_requests_total",
        "http_requests_total * 2",
        "http_requests_total + http_requests_total",
        "http_requests_total == bool 120",
        "rate(http_requests_total[5m])",
        "abs(http_requests_total)",
        "timestamp(http_requests_total)"
      })
  void whatDropsTheNameDropsTypeAndUnitInPrometheus3AndKeepsThemIn2(String query) {
    LabelSet identity = LabelSet.of("job", "api", "instance", "0");
    assertThat(labelsOf(query, Compat.PROMETHEUS_3)).isEqualTo(identity);
    assertThat(labelsOf(query, Compat.PROMETHEUS_2))
        .isEqualTo(
            identity.toBuilder().set("__type__", "counter").set("__unit__", "request").build());
  }

  @Test
  void whatKeepsTheNameKeepsThem() {
    for (String query :
        new String[] {
          "http_requests_total > 1",
          "last_over_time(http_requests_total[5m])",
          "+http_requests_total"
        }) {
      assertThat(labelsOf(query, Compat.PROMETHEUS_3)).as(query).isEqualTo(REQUESTS);
    }
    // Aggregating without labels drops the name only, as Prometheus 3's engine does.
    assertThat(labelsOf("sum without (instance) (http_requests_total)", Compat.PROMETHEUS_3))
        .isEqualTo(LabelSet.of("__type__", "counter", "__unit__", "request", "job", "api"));
  }
}
