package dev.firedrill.promql.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link Feature#DELAYED_NAME_REMOVAL}: a dropped {@code __name__} goes only from the query's
 * result, as with Prometheus's {@code promql-delayed-name-removal}; without the flag, at once.
 */
class DelayedNameRemovalTest {

  private static final LabelSet REQUESTS = LabelSet.of("__name__", "requests", "job", "api");
  private static final LabelSet ERRORS = LabelSet.of("__name__", "errors", "job", "api");

  /** Two names, one job: requests at 0, errors at 10 m, never both within the 5 m lookback. */
  private final Exprs.Store store =
      new Exprs.Store().series(REQUESTS, 600_000, 2.0, null).series(ERRORS, 600_000, null, 4.0);

  private Engine engine(Set<Feature> features) {
    return new Engine(
        store, Engine.Options.defaults().withCompat(Compat.PROMETHEUS_3).withFeatures(features));
  }

  private static final Set<Feature> DELAYED = Set.of(Feature.DELAYED_NAME_REMOVAL);

  @Test
  void labelReplaceReadsAndKeepsANameThatRateWasToDrop() {
    String query =
        "label_replace(rate(requests[5m]), \"__name__\", \"$1\", \"__name__\", \"(.+)\")";
    store.add(REQUESTS, 60_000, 5.0);

    assertThat(((Value.Vector) engine(DELAYED).instant(query, 60_000)).samples())
        .extracting(Value.Sample::labels)
        .containsExactly(REQUESTS);
    assertThat(((Value.Vector) engine(Set.of()).instant(query, 60_000)).samples())
        .extracting(Value.Sample::labels)
        .containsExactly(LabelSet.of("job", "api"));
  }

  @Test
  void seriesThatLoseTheirNamesMergeInARangeQueryWhenTheirStepsDoNotOverlap() {
    Value.Matrix delayed = engine(DELAYED).range("-{job=\"api\"}", 0, 600_000, 600_000);

    assertThat(delayed.series()).hasSize(1);
    assertThat(delayed.series().get(0).labels()).isEqualTo(LabelSet.of("job", "api"));
    assertThat(delayed.series().get(0).values()).containsExactly(-2, -4);
    assertThatThrownBy(() -> engine(Set.of()).range("-{job=\"api\"}", 0, 600_000, 600_000))
        .isInstanceOf(PromqlException.class)
        .hasMessage("vector cannot contain metrics with the same labelset");
  }

  @Test
  void groupingByNameDropsItWhenAnySeriesOfTheGroupWasToLoseIt() {
    LabelSet one = LabelSet.of("__name__", "hits", "env", "1");
    LabelSet two = LabelSet.of("__name__", "hits", "env", "2");
    store.series(one, 60_000, 10.0).series(two, 60_000, 0.0, 3.0);
    String query = "sum by (__name__) (hits{env=\"1\"} or rate(hits{env=\"2\"}[5m]))";

    List<Value.Sample> delayed = ((Value.Vector) engine(DELAYED).instant(query, 60_000)).samples();
    List<Value.Sample> eager = ((Value.Vector) engine(Set.of()).instant(query, 60_000)).samples();

    // One group, hits, which loses its name for the rate in it; eagerly the rate is a group apart.
    assertThat(delayed).extracting(Value.Sample::labels).containsExactly(LabelSet.EMPTY);
    assertThat(eager)
        .extracting(Value.Sample::labels)
        .containsExactlyInAnyOrder(LabelSet.of("__name__", "hits"), LabelSet.EMPTY);
  }
}
