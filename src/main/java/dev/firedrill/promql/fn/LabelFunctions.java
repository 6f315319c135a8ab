package dev.firedrill.promql.fn;

import dev.firedrill.promql.model.LabelSet;

/** {@code label_replace} and {@code label_join}, one label set at a time. */
public final class LabelFunctions {

  private LabelFunctions() {}

  /**
   * @throws dev.firedrill.promql.model.PromqlException EXECUTION with Prometheus's message for an
   *     invalid regex or destination label name
   */
  public static LabelSet replace(LabelSet labels, String dst, String replacement, String src, String regex) {
    throw new UnsupportedOperationException("not written yet");
  }

  public static LabelSet join(LabelSet labels, String dst, String separator, String... srcLabels) {
    throw new UnsupportedOperationException("not written yet");
  }
}
