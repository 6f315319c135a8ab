package dev.firedrill.marker;

import dev.firedrill.experiment.FaultSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * What the markers name as a fault's target: what it touches ({@link FaultSpec#targetName()}, for
 * Kubernetes faults the namespace) and, once injected, the names it selected (the pods). A fault
 * may select hundreds of pods, so the label and the tags are bounded: they keep whole names while
 * they fit and count the rest, and a dashboard's legend or a series' label never explodes.
 */
public final class MarkerTarget {

  /** The longest target label firedrill writes, unless the target's own name is longer. */
  public static final int MAX_LENGTH = 120;

  /** The most selected names put on an annotation or a span, beside a count of the rest. */
  public static final int MAX_NAMES = 10;

  private MarkerTarget() {}

  /**
   * {@code shop} before injection or when nothing was selected; {@code shop: checkout-1,checkout-2}
   * after; {@code shop: checkout-1,+41 more} when the names do not fit in {@link #MAX_LENGTH}.
   */
  public static String of(FaultSpec spec, List<String> selected) {
    List<String> names = List.copyOf(new LinkedHashSet<>(selected));
    String target = spec.targetName();
    if (names.isEmpty()) {
      return target;
    }
    StringBuilder text = new StringBuilder(target).append(": ");
    int kept = 0;
    for (String name : names) {
      String more = ",+" + (names.size() - kept - 1) + " more";
      String next = (kept == 0 ? "" : ",") + name;
      boolean last = kept == names.size() - 1;
      if (text.length() + next.length() + (last ? 0 : more.length()) > MAX_LENGTH) {
        break;
      }
      text.append(next);
      kept++;
    }
    if (kept < names.size()) {
      text.append(kept == 0 ? "" : ",").append("+").append(names.size() - kept).append(" more");
    }
    return text.toString();
  }

  /**
   * The first {@link #MAX_NAMES} selected names and, when there are more, {@code +N more}: the
   * annotation tags and the span attribute's values.
   */
  public static List<String> names(List<String> selected) {
    List<String> names = List.copyOf(new LinkedHashSet<>(selected));
    if (names.size() <= MAX_NAMES) {
      return names;
    }
    List<String> kept = new ArrayList<>(names.subList(0, MAX_NAMES));
    kept.add("+" + (names.size() - MAX_NAMES) + " more");
    return List.copyOf(kept);
  }
}
