package dev.firedrill.kubernetes.chaosmesh;

import dev.firedrill.kubernetes.select.LabelRequirement;
import dev.firedrill.kubernetes.select.PodSelector;
import java.util.List;
import java.util.Map;

/**
 * The part of a Chaos Mesh selector firedrill can count pods by: its namespaces (Chaos Mesh's
 * default is the object's own), {@code labelSelectors} and {@code expressionSelectors}. Chaos Mesh
 * applies the mode to the pods of all its namespaces together, so the count is their sum.
 */
record ChaosSelector(
    List<String> namespaces, Map<String, String> labels, List<LabelRequirement> expressions) {

  ChaosSelector {
    namespaces = List.copyOf(namespaces);
    labels = Map.copyOf(labels);
    expressions = List.copyOf(expressions);
    if (namespaces.isEmpty()) {
      throw new IllegalArgumentException("a Chaos Mesh selector needs a namespace");
    }
  }

  /** One pod selector per namespace, with the same labels. */
  List<PodSelector> pods() {
    return namespaces.stream()
        .map(ns -> new PodSelector(ns, labels, expressions, List.of()))
        .toList();
  }

  /** For messages: {@code app=web in shop} or {@code app=web in shop, cart}. */
  String text() {
    String label = pods().get(0).labelText();
    return label + " in " + String.join(", ", namespaces);
  }
}
