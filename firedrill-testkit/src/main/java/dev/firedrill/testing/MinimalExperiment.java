package dev.firedrill.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.ExperimentException;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.yaml.Problem;
import java.util.List;

/**
 * The smallest valid experiment, for the tests of one section: they replace a piece of it, swap its
 * prometheus section or append sections after it. The asserted line numbers of refusals count on
 * this layout, so change it only together with them.
 */
public final class MinimalExperiment {

  /** The prometheus section of {@link #TEXT} (lines 3-4). */
  public static final String PROMETHEUS = "prometheus:\n  url: http://127.0.0.1:9090\n";

  /** 25 lines; an appended section starts at line 26. */
  public static final String TEXT =
      """
      id: drill
      title: A drill
      prometheus:
        url: http://127.0.0.1:9090
      steady_state:
        slis:
          - name: error_ratio
            query: up
            max: 0.005
      method:
        duration: 10m
        faults:
          - kind: process-kill
            match: payments-server
      abort:
        rules:
          - sli: error_ratio
            above: 0.05
        burn_rate:
          error_ratio: up
          objective: 0.999
          max: 14.4
      blast_radius:
        traffic_share: 0.05
        max_duration: 15m
      """;

  private MinimalExperiment() {}

  /**
   * {@link #TEXT} with its prometheus section replaced by {@code prometheus} (an empty string drops
   * it, 23 lines left) and {@code sections} appended.
   */
  public static String with(String prometheus, String sections) {
    return replace(TEXT, PROMETHEUS, prometheus) + sections;
  }

  /** {@link #TEXT} without its prometheus section, {@code sections} appended from line 24. */
  public static String withoutPrometheus(String sections) {
    return with("", sections);
  }

  /** {@link #TEXT} with {@code sections} appended from line 26. */
  public static String with(String sections) {
    return TEXT + sections;
  }

  /**
   * {@code text} with {@code from} replaced; {@code from} must be there, so no test changes
   * nothing.
   */
  public static String replace(String text, String from, String to) {
    assertThat(text).contains(from);
    return text.replace(from, to);
  }

  /** {@code text} loaded as exp.yaml; its problems fail the test. */
  public static Experiment load(String text) {
    try {
      return ExperimentLoader.load("exp.yaml", text);
    } catch (ExperimentException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  /** The problems of {@code text} loaded as exp.yaml; loading it fails the test. */
  public static List<String> problems(String text) {
    return problems("exp.yaml", text);
  }

  /**
   * The problems of {@code content} loaded as {@code fileName}, one line each of the exception's
   * message.
   */
  public static List<String> problems(String fileName, String content) {
    try {
      ExperimentLoader.load(fileName, content);
    } catch (ExperimentException e) {
      List<String> problems = e.problems().stream().map(Problem::toString).toList();
      assertThat(e.getMessage()).isEqualTo(String.join("\n", problems));
      return problems;
    }
    throw new AssertionError("expected problems in " + fileName);
  }
}
