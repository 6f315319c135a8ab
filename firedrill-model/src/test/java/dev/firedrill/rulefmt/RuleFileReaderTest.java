package dev.firedrill.rulefmt;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.yaml.Problem;
import dev.firedrill.yaml.SourceTree;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The group keys each strictness takes; the rest of the reader is tested through lint and the
 * engine.
 */
class RuleFileReaderTest {

  private static final String GROUP =
      """
      groups:
        - name: g
          interval: 30s
          query_offset: 1m
          limit: 3
          labels: {team: payments}
          rules:
            - alert: A
              expr: up == 0
      """;

  /** Groups as read, with no rule check beyond the reader's own. */
  private static final RuleFileReader.Rules<Problem, RuleFileReader.Group, RuleFileReader.Rule>
      AS_READ =
          new RuleFileReader.Rules<>() {
            @Override
            public RuleFileReader.Rule rule(
                RuleFileReader.Rule rule, SourceTree<Problem> tree, List<Problem> problems) {
              return rule;
            }

            @Override
            public RuleFileReader.Group group(
                RuleFileReader.Group group, List<RuleFileReader.Rule> rules) {
              return group;
            }
          };

  private static List<RuleFileReader.Group> read(
      String yaml, RuleFileReader.Strictness strictness, List<Problem> problems) {
    return RuleFileReader.read("r.yml", yaml, Problem::new, problems, strictness, AS_READ).stream()
        .flatMap(h -> h.groups().stream())
        .toList();
  }

  @Test
  void prometheus3sGroupKeysAreRead() {
    List<Problem> problems = new ArrayList<>();
    assertThat(read(GROUP, RuleFileReader.Strictness.PROMETHEUS, problems))
        .containsExactly(
            new RuleFileReader.Group(
                "g", Duration.ofSeconds(30), Duration.ofMinutes(1), 3, Map.of("team", "payments")));
    assertThat(problems).isEmpty();
  }

  @Test
  void theEngineRefusesTheGroupKeysItDoesNotEvaluateByName() {
    List<Problem> problems = new ArrayList<>();
    read(GROUP, RuleFileReader.Strictness.EMBEDDED, problems);
    assertThat(problems)
        .extracting(Problem::toString)
        .containsExactly(
            "r.yml: /groups/0/query_offset: unknown key \"query_offset\"; expected one of name, interval, limit, rules"
                + " (line 4, column 5)",
            "r.yml: /groups/0/labels: unknown key \"labels\"; expected one of name, interval, limit, rules"
                + " (line 6, column 5)");
  }

  @Test
  void groupLabelsAreCheckedAsPrometheus3ChecksThem() {
    List<Problem> problems = new ArrayList<>();
    read(
        """
        groups:
          - name: g
            query_offset: soon
            labels: {__name__: x, ok: "1"}
          - name: h
            labels: [a]
        """,
        RuleFileReader.Strictness.PROMETHEUS,
        problems);
    assertThat(problems)
        .extracting(Problem::toString)
        .containsExactly(
            "r.yml: /groups/0/query_offset: not a valid duration string: \"soon\" (line 3, column 5)",
            "r.yml: /groups/0/labels/__name__: invalid label name: __name__ (line 4, column 14)",
            "r.yml: /groups/1/labels: expected a mapping of names to text for labels (line 6, column 5)");
  }
}
