package dev.firedrill.marker;

/**
 * Tags firedrill puts on the marks it leaves in other tools. The dashboards in {@code dashboards/}
 * filter their annotation query on {@link #CHAOS_TAG}, so the annotation sink and the dashboards
 * read it from here and cannot drift apart.
 */
public final class MarkerTags {

  /** On every Grafana annotation firedrill writes; the dashboards' annotation query selects it. */
  public static final String CHAOS_TAG = "chaos";

  private MarkerTags() {}
}
