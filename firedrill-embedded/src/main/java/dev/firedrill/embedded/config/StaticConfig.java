package dev.firedrill.embedded.config;

import dev.firedrill.promql.model.LabelSet;
import java.util.List;
import java.util.Objects;

/** A {@code static_configs} entry: {@code host:port} targets and the labels they all get. */
public record StaticConfig(List<String> targets, LabelSet labels) {

  public StaticConfig {
    targets = List.copyOf(targets);
    Objects.requireNonNull(labels, "labels");
  }
}
