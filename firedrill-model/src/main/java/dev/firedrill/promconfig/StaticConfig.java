package dev.firedrill.promconfig;

import dev.firedrill.promql.model.LabelSet;
import java.util.List;
import java.util.Objects;

/**
 * A {@code static_configs} entry: its targets as written ({@code host:port}) and the labels they
 * all get.
 */
public record StaticConfig(List<String> targets, LabelSet labels) {

  public StaticConfig {
    targets = List.copyOf(targets);
    Objects.requireNonNull(labels, "labels");
  }
}
