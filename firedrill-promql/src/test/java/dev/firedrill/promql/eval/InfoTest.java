package dev.firedrill.promql.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Prometheus 3's info(): joining a series with the data labels of its info series. */
class InfoTest {

  private static final long MIN = 60_000;
  private static final LabelSet UP = LabelSet.of("__name__", "up", "instance", "a", "job", "api");
  private static final LabelSet TARGET =
      LabelSet.of(
          "__name__", "target_info", "instance", "a", "job", "api", "region", "eu", "k8s", "c1");
  private static final LabelSet BUILD =
      LabelSet.of("__name__", "build_info", "instance", "a", "job", "api", "version", "1.2");

  private final Exprs.Store store =
      new Exprs.Store()
          .series(UP, MIN, 1.0, 1.0, 0.0)
          .series(TARGET, MIN, 1.0, 1.0, 1.0)
          .series(BUILD, MIN, 1.0, 1.0, 1.0);
  private final Engine engine = Exprs.engine(store, Compat.PROMETHEUS_3);

  private List<Value.Sample> instant(String query, long t) {
    return ((Value.Vector) engine.instant(query, t)).samples();
  }

  private static LabelSet up(String... more) {
    LabelSet.Builder b = UP.toBuilder();
    for (int i = 0; i < more.length; i += 2) {
      b.set(more[i], more[i + 1]);
    }
    return b.build();
  }

  @Test
  void withoutASelectorTheDataLabelsOfTargetInfoAreAdded() {
    assertThat(instant("info(up)", 2 * MIN))
        .containsExactly(new Value.Sample(up("region", "eu", "k8s", "c1"), 2 * MIN, 0));
  }

  @Test
  void theSelectorPicksInfoMetricsByNameAndTheDataLabelsToCopy() {
    assertThat(instant("info(up, {__name__=\"build_info\"})", MIN))
        .extracting(Value.Sample::labels)
        .containsExactly(up("version", "1.2"));
    assertThat(instant("info(up, {__name__=~\".+_info\", region=~\".+\"})", MIN))
        .extracting(Value.Sample::labels)
        .containsExactly(up("region", "eu"));
  }

  @Test
  void aSeriesNoInfoSeriesMatchesIsKeptUnlessAMatcherRefusesTheEmptyString() {
    store.series(LabelSet.of("__name__", "up", "instance", "b", "job", "api"), MIN, 1.0);
    assertThat(instant("info(up, {region=~\".*\"})", 0))
        .extracting(Value.Sample::labels)
        .containsExactlyInAnyOrder(
            up("region", "eu"), LabelSet.of("__name__", "up", "instance", "b", "job", "api"));
    assertThat(instant("info(up, {region=~\".+\"})", 0))
        .extracting(Value.Sample::labels)
        .containsExactly(up("region", "eu"));
  }

  @Test
  void anInfoSeriesOfTheQueryIsPassedThroughUnchanged() {
    assertThat(instant("info({job=\"api\"}, {__name__=\"target_info\"})", 0))
        .extracting(Value.Sample::labels)
        .containsExactlyInAnyOrder(
            TARGET,
            up("region", "eu", "k8s", "c1"),
            BUILD.toBuilder().set("region", "eu").set("k8s", "c1").build());
  }

  @Test
  void ofTwoInfoSeriesWithOneSignatureTheNewerSampleWins() {
    LabelSet moved = TARGET.toBuilder().set("region", "us").build();
    store.add(moved, 30_000, 1.0);
    // At 1 min target_info{region="eu"} has a sample at 1 min, the moved one only at 30 s.
    assertThat(instant("info(up)", MIN))
        .extracting(Value.Sample::labels)
        .containsExactly(up("region", "eu", "k8s", "c1"));
    assertThat(instant("info(up)", 45_000))
        .extracting(Value.Sample::labels)
        .containsExactly(up("region", "us", "k8s", "c1"));
    store.add(moved, MIN, 1.0);
    assertThatThrownBy(() -> instant("info(up)", MIN))
        .isInstanceOf(PromqlException.class)
        .hasMessage(
            "found duplicate series for info metric: existing {__name__=\"target_info\","
                + " instance=\"a\", job=\"api\", k8s=\"c1\", region=\"eu\"} @ 60000, new"
                + " {__name__=\"target_info\", instance=\"a\", job=\"api\", k8s=\"c1\","
                + " region=\"us\"} @ 60000");
  }

  @Test
  void twoInfoMetricsOfferingDifferentValuesOfALabelAreAnError() {
    store.series(
        LabelSet.of("__name__", "other_info", "instance", "a", "job", "api", "region", "us"),
        MIN,
        1.0);
    assertThatThrownBy(() -> instant("info(up, {__name__=~\"target_info|other_info\"})", 0))
        .hasMessage("conflicting label: region");
  }

  @Test
  void aRangeQueryEnrichesStepByStepAsTheInfoSeriesChange() {
    store.add(TARGET.toBuilder().set("region", "us").build(), 3 * MIN, 1.0);
    store.add(UP, 3 * MIN, 1.0);
    Value.Matrix m = engine.range("info(up, {region=~\".+\"})", 0, 3 * MIN, MIN);
    assertThat(m.series())
        .extracting(Value.Series::labels)
        .containsExactly(up("region", "eu"), up("region", "us"));
    assertThat(m.series().get(0).timestampsMs()).containsExactly(0L, MIN, 2 * MIN);
    assertThat(m.series().get(1).timestampsMs()).containsExactly(3 * MIN);
  }

  @Test
  void identifyingValuesAreMatchedLiterallyWhenSelectingInfoSeries() {
    String value = "10.0.0.1:9100|[x]";
    LabelMatcher m =
        LabelMatcher.of(LabelMatcher.Type.REGEX, "instance", Info.quoteMeta(value), true);
    assertThat(m.matches(value)).isTrue();
    assertThat(m.matches("10a0.0.1:9100|[x]")).isFalse();
    assertThat(m.matches("10.0.0.1:9100")).isFalse();
  }
}
