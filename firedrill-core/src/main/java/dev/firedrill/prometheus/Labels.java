package dev.firedrill.prometheus;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Label sets printed the way PromQL writes them, names sorted: {@code {code="500", job="api"}}. */
public final class Labels {

  private Labels() {}

  public static String format(Map<String, String> labels) {
    return new TreeMap<>(labels)
        .entrySet().stream()
            .map(e -> e.getKey() + "=\"" + escape(e.getValue()) + "\"")
            .collect(Collectors.joining(", ", "{", "}"));
  }

  private static String escape(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
