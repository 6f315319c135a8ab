package dev.firedrill.embedded.scrape;

import dev.firedrill.promql.model.LabelSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** How a target's labels join an exposed sample's, as Prometheus's {@code mutateSampleLabels}. */
final class TargetLabels {

  private static final String EXPORTED = "exported_";

  private TargetLabels() {}

  /**
   * With {@code honorLabels}, an exposed label wins over the target's; without, the target's wins
   * and the exposed value moves to {@code exported_<name>} (prefixed again while that is taken,
   * shorter names first).
   */
  static LabelSet apply(LabelSet exposed, LabelSet target, boolean honorLabels) {
    Map<String, String> labels = exposed.toMap();
    List<String> conflicting = new ArrayList<>();
    for (int i = 0; i < target.size(); i++) {
      String name = target.name(i);
      if (honorLabels) {
        labels.putIfAbsent(name, target.value(i));
        continue;
      }
      if (exposed.has(name)) {
        conflicting.add(name);
      }
      labels.put(name, target.value(i));
    }
    conflicting.sort(Comparator.comparingInt(String::length));
    for (String name : conflicting) {
      String exportedName = EXPORTED + name;
      while (labels.containsKey(exportedName)) {
        exportedName = EXPORTED + exportedName;
      }
      labels.put(exportedName, exposed.get(name));
    }
    return LabelSet.of(labels);
  }
}
