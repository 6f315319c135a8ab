package dev.firedrill.promql.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An immutable label set, names sorted, as Prometheus's {@code labels.Labels}. Empty values are
 * dropped on construction: in Prometheus a label with an empty value does not exist.
 */
public final class LabelSet implements Comparable<LabelSet> {

  public static final String METRIC_NAME = "__name__";
  public static final LabelSet EMPTY = new LabelSet(new String[0], new String[0]);

  private final String[] names;
  private final String[] values;
  private int hash;

  private LabelSet(String[] names, String[] values) {
    this.names = names;
    this.values = values;
  }

  public static LabelSet of(Map<String, String> labels) {
    TreeMap<String, String> sorted = new TreeMap<>();
    labels.forEach(
        (name, value) -> {
          if (value != null && !value.isEmpty()) {
            sorted.put(name, value);
          }
        });
    String[] names = sorted.keySet().toArray(String[]::new);
    String[] values = sorted.values().toArray(String[]::new);
    return names.length == 0 ? EMPTY : new LabelSet(names, values);
  }

  /** {@code of("job", "api", "code", "500")}: name, value, name, value. */
  public static LabelSet of(String... nameValuePairs) {
    if (nameValuePairs.length % 2 != 0) {
      throw new IllegalArgumentException("label names and values come in pairs");
    }
    TreeMap<String, String> map = new TreeMap<>();
    for (int i = 0; i < nameValuePairs.length; i += 2) {
      map.put(nameValuePairs[i], nameValuePairs[i + 1]);
    }
    return of(map);
  }

  public int size() {
    return names.length;
  }

  public String name(int i) {
    return names[i];
  }

  public String value(int i) {
    return values[i];
  }

  /** The value, or the empty string when the label is missing (as matchers see it). */
  public String get(String name) {
    int i = Arrays.binarySearch(names, name);
    return i >= 0 ? values[i] : "";
  }

  public boolean has(String name) {
    return Arrays.binarySearch(names, name) >= 0;
  }

  public String metricName() {
    return get(METRIC_NAME);
  }

  public LabelSet withoutMetricName() {
    int at = Arrays.binarySearch(names, METRIC_NAME);
    if (at < 0) {
      return this;
    }
    // Every series of a query goes through here, so the sorted arrays are cut, not rebuilt.
    return names.length == 1 ? EMPTY : new LabelSet(without(names, at), without(values, at));
  }

  private static String[] without(String[] from, int at) {
    String[] out = new String[from.length - 1];
    System.arraycopy(from, 0, out, 0, at);
    System.arraycopy(from, at + 1, out, at, out.length - at);
    return out;
  }

  public Map<String, String> toMap() {
    Map<String, String> map = new TreeMap<>();
    for (int i = 0; i < names.length; i++) {
      map.put(names[i], values[i]);
    }
    return map;
  }

  public Builder toBuilder() {
    return new Builder(toMap());
  }

  public static Builder builder() {
    return new Builder(new TreeMap<>());
  }

  /** Only the named labels (PromQL's {@code on(...)} / {@code by(...)}). */
  public LabelSet keep(Collection<String> keep) {
    return filter(keep, true);
  }

  /** All but the named labels (PromQL's {@code ignoring(...)} / {@code without(...)}). */
  public LabelSet drop(Collection<String> drop) {
    return filter(drop, false);
  }

  /** The labels whose name is in {@code named} or not: a subset of sorted labels stays sorted. */
  private LabelSet filter(Collection<String> named, boolean in) {
    String[] keptNames = new String[names.length];
    String[] keptValues = new String[names.length];
    int n = 0;
    for (int i = 0; i < names.length; i++) {
      if (named.contains(names[i]) == in) {
        keptNames[n] = names[i];
        keptValues[n] = values[i];
        n++;
      }
    }
    if (n == names.length) {
      return this;
    }
    return n == 0 ? EMPTY : new LabelSet(Arrays.copyOf(keptNames, n), Arrays.copyOf(keptValues, n));
  }

  public List<String> names() {
    return List.of(names);
  }

  @Override
  public boolean equals(Object o) {
    return this == o
        || (o instanceof LabelSet other
            && Arrays.equals(names, other.names)
            && Arrays.equals(values, other.values));
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = 31 * Arrays.hashCode(names) + Arrays.hashCode(values);
      hash = h;
    }
    return h;
  }

  /** Prometheus's order: label by label, name then value; a prefix sorts first. */
  @Override
  public int compareTo(LabelSet other) {
    int n = Math.min(names.length, other.names.length);
    for (int i = 0; i < n; i++) {
      int c = names[i].compareTo(other.names[i]);
      if (c != 0) {
        return c;
      }
      c = values[i].compareTo(other.values[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(names.length, other.names.length);
  }

  /** As Prometheus prints it: {@code name{a="b", c="d"}}, or {@code {a="b"}} without a name. */
  @Override
  public String toString() {
    StringBuilder out = new StringBuilder(metricName());
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < names.length; i++) {
      if (!names[i].equals(METRIC_NAME)) {
        parts.add(names[i] + "=\"" + escape(values[i]) + "\"");
      }
    }
    if (!parts.isEmpty() || out.isEmpty()) {
      out.append('{').append(String.join(", ", parts)).append('}');
    }
    return out.toString();
  }

  private static String escape(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  /** Collects labels; {@link #build()} drops empty values. */
  public static final class Builder {
    private final Map<String, String> labels;

    private Builder(Map<String, String> labels) {
      this.labels = labels;
    }

    public Builder set(String name, String value) {
      labels.put(name, value);
      return this;
    }

    public Builder remove(String name) {
      labels.remove(name);
      return this;
    }

    public LabelSet build() {
      return LabelSet.of(labels);
    }
  }
}
