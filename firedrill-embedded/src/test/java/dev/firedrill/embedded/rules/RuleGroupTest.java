package dev.firedrill.embedded.rules;

import static dev.firedrill.embedded.rules.RuleHarness.sample;
import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.embedded.rules.snapshot.GroupSnapshot;
import dev.firedrill.embedded.rules.snapshot.RuleSnapshot;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.eval.Value;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.promql.model.StaleNaN;
import dev.firedrill.promql.model.StoredSeries;
import dev.firedrill.promql.model.XxHash64;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RuleGroupTest {

  private static final long START = 1_700_000_000_000L;
  private static final RuleManager.Options OPTIONS =
      new RuleManager.Options(15_000, 60_000, Map.of(), "http://x");

  private static final String RULES =
      """
      groups:
        - name: sli
          rules:
            - record: job:errors:rate5m
              expr: sum by (job) (rate(errors_total[5m]))
              labels:
                team: checkout
            - alert: ErrorsHigh
              expr: job:errors:rate5m > 1
      """;

  @Test
  void aRecordingRulesOutputIsVisibleToTheRulesAfterItInTheSameEvaluation() {
    RuleHarness rules = new RuleHarness(RULES, OPTIONS);
    rules.answer("job:errors:rate5m", t -> List.of(sample(3, "job", "api")));
    AtomicInteger seen = new AtomicInteger();
    rules.answer(
        "ErrorsHigh",
        t -> {
          List<StoredSeries> recorded =
              rules.storage.select(
                  List.of(
                      LabelMatcher.of(
                          LabelMatcher.Type.EQUAL, LabelSet.METRIC_NAME, "job:errors:rate5m")),
                  t,
                  t);
          seen.set(recorded.size());
          return recorded.stream()
              .map(s -> new Value.Sample(s.labels(), t, s.values()[0]))
              .toList();
        });
    long first = rules.start(START);
    assertThat(first - START).as("the global 15 s interval").isBetween(1L, 15_000L);
    rules.step();
    assertThat(seen).hasValue(1);
    StoredSeries recorded = rules.series("job:errors:rate5m").get(0);
    assertThat(recorded.labels())
        .isEqualTo(LabelSet.of("__name__", "job:errors:rate5m", "job", "api", "team", "checkout"));
    assertThat(recorded.timestamps()[0]).isEqualTo(first);
    assertThat(rules.manager.alerts())
        .extracting(a -> a.labels().get("team"))
        .containsExactly("checkout");
  }

  @Test
  void duplicateLabelSetsAfterRuleLabelsFailTheRuleAsPrometheusWordsIt() {
    RuleHarness rules = new RuleHarness(RULES, OPTIONS);
    rules.answer(
        "job:errors:rate5m",
        t ->
            List.of(
                sample(1, "__name__", "a", "job", "api"),
                sample(2, "__name__", "b", "job", "api")));
    rules.start(START);
    long t = rules.step();
    RuleSnapshot recording = rules.manager.groups().get(0).rules().get(0);
    assertThat(recording.health()).isEqualTo("err");
    assertThat(recording.lastError())
        .isEqualTo("vector contains metrics with the same labelset after applying rule labels");
    assertThat(recording.lastEvaluation()).contains(Instant.ofEpochMilli(t));
    assertThat(rules.series("job:errors:rate5m")).isEmpty();
  }

  @Test
  void aQueryErrorIsTheRulesLastErrorAndTheNextGoodEvaluationClearsIt() {
    RuleHarness rules = new RuleHarness(RULES, OPTIONS);
    AtomicInteger calls = new AtomicInteger();
    rules.answer(
        "job:errors:rate5m",
        t -> {
          if (calls.incrementAndGet() == 1) {
            throw new PromqlException(
                PromqlException.ErrorType.EXECUTION, "query timed out in expression evaluation");
          }
          return List.of(sample(1, "job", "api"));
        });
    rules.start(START);
    rules.step();
    assertThat(rules.manager.groups().get(0).rules().get(0).lastError())
        .isEqualTo("query timed out in expression evaluation");
    rules.step();
    assertThat(rules.manager.groups().get(0).rules().get(0).health()).isEqualTo("ok");
    assertThat(rules.manager.groups().get(0).rules().get(0).lastError()).isEmpty();
  }

  @Test
  void aRecordedSeriesThatDisappearsGetsAStalenessMarker() {
    RuleHarness rules = new RuleHarness(RULES, OPTIONS);
    AtomicInteger calls = new AtomicInteger();
    rules.answer(
        "job:errors:rate5m",
        t ->
            calls.incrementAndGet() == 1
                ? List.of(sample(1, "job", "api"), sample(2, "job", "db"))
                : List.of(sample(1, "job", "api")));
    rules.start(START);
    long first = rules.step();
    long second = rules.step();
    StoredSeries db =
        rules.series("job:errors:rate5m").stream()
            .filter(s -> s.labels().get("job").equals("db"))
            .findFirst()
            .orElseThrow();
    assertThat(db.count()).isEqualTo(2);
    assertThat(db.timestamps()[0]).isEqualTo(first);
    assertThat(db.timestamps()[1]).isEqualTo(second);
    assertThat(StaleNaN.is(db.values()[1])).isTrue();
  }

  @Test
  void limitsAreEnforcedWithPrometheussWords() {
    RuleHarness rules =
        new RuleHarness(
            """
        groups:
          - name: limited
            limit: 1
            rules:
              - record: r
                expr: up
              - alert: A
                expr: up
        """,
            OPTIONS);
    rules.answer("r", t -> List.of(sample(1, "job", "a"), sample(1, "job", "b")));
    rules.answer("A", t -> List.of(sample(1, "job", "a"), sample(1, "job", "b")));
    rules.start(START);
    rules.step();
    List<RuleSnapshot> snapshot = rules.manager.groups().get(0).rules();
    assertThat(snapshot.get(0).lastError()).isEqualTo("exceeded limit of 1 with 2 series");
    assertThat(snapshot.get(1).lastError()).isEqualTo("exceeded limit of 1 with 2 alerts");
    assertThat(rules.manager.alerts()).isEmpty();
  }

  @Test
  void evaluationsFallOnTheGroupsOffsetAndMissedSlotsAreSkippedNotCaughtUp() {
    RuleHarness rules = new RuleHarness(RULES, OPTIONS);
    long first = rules.start(START);
    EvalSchedule schedule = new EvalSchedule("rules.yml", "sli", 15_000, Compat.defaultMode());
    assertThat(Math.floorMod(first, 15_000)).isEqualTo(schedule.offsetMs());
    assertThat(rules.manager.evaluateDue(first - 1)).isZero();
    assertThat(rules.manager.evaluateDue(first + 3 * 15_000 + 7)).isEqualTo(1);
    assertThat(rules.manager.missedIterations()).isEqualTo(3);
    assertThat(rules.manager.nextDueMs()).isEqualTo(first + 4 * 15_000);
    GroupSnapshot group = rules.manager.groups().get(0);
    assertThat(group.lastEvaluation()).contains(Instant.ofEpochMilli(first + 3 * 15_000 + 7));
    assertThat(group.interval()).isEqualTo(15.0);
  }

  @Test
  void inMode2TheOffsetIsXxHash64OfFileAndNameAsPrometheus2HashesLabels() {
    byte[] key =
        "file\u00ffrules.yml\u00ffname\u00ffsli\u00ff".getBytes(StandardCharsets.ISO_8859_1);
    long expected = Long.remainderUnsigned(XxHash64.hash(key), 15_000_000_000L) / 1_000_000L;
    assertThat(new EvalSchedule("rules.yml", "sli", 15_000, Compat.PROMETHEUS_2).offsetMs())
        .isEqualTo(expected);
  }

  /**
   * The offsets, within a 1 s interval, at which the real binaries evaluated two groups of {@code
   * /tmp/simphase-exp/rules.yml} (the sample timestamps of a {@code vector(1)} recording rule):
   * Debian's 2.42 at .664 and .984, Debian's 3.5.3 at .243 and .560.
   */
  @Test
  void eachModeOffsetsAGroupWhereThatMajorsRealBinaryEvaluatesIt() {
    String file = "/tmp/simphase-exp/rules.yml";
    assertThat(new EvalSchedule(file, "alpha", 1000, Compat.PROMETHEUS_2).offsetMs())
        .isEqualTo(664);
    assertThat(new EvalSchedule(file, "lab-sli", 1000, Compat.PROMETHEUS_2).offsetMs())
        .isEqualTo(984);
    assertThat(new EvalSchedule(file, "alpha", 1000, Compat.PROMETHEUS_3).offsetMs())
        .isEqualTo(243);
    assertThat(new EvalSchedule(file, "lab-sli", 1000, Compat.PROMETHEUS_3).offsetMs())
        .isEqualTo(560);
  }

  /**
   * 3.5.3 writes a string's length in one byte below 255 and in four from 255 on: the offsets it
   * gave the groups of a 194- and a 274-character path (the wall-clock start of their evaluations,
   * a millisecond or two after the slot: .054, .882; .080, .989).
   */
  @Test
  void inMode3APathOf255BytesOrMoreHashesWithItsLengthInFourBytes() {
    String a = "/tmp/simphase-exp/" + "a".repeat(170);
    String b = "/tmp/simphase-exp/" + "b".repeat(250) + "/r.yml";
    assertThat(new EvalSchedule(a + "/r.yml", "alpha", 1000, Compat.PROMETHEUS_3).offsetMs())
        .isEqualTo(54);
    assertThat(new EvalSchedule(a + "/r.yml", "lab-sli", 1000, Compat.PROMETHEUS_3).offsetMs())
        .isEqualTo(882);
    assertThat(new EvalSchedule(b, "alpha", 1000, Compat.PROMETHEUS_3).offsetMs()).isEqualTo(78);
    assertThat(new EvalSchedule(b, "lab-sli", 1000, Compat.PROMETHEUS_3).offsetMs()).isEqualTo(988);
  }
}
