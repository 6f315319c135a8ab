package dev.firedrill.alerting.routes;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What a route does with the alerts it gets, after inheritance: receiver, grouping and timings come
 * from the nearest ancestor that sets them (Alertmanager's defaults at the root: no grouping, 30s,
 * 5m, 4h); the time intervals are the route's own and are not inherited.
 *
 * @param groupBy the labels to group by, sorted; with {@code groupByAll} ({@code group_by:
 *     ['...']}) every label groups, and {@code groupBy} keeps what was inherited, as Alertmanager
 *     keeps it
 */
public record RouteOptions(
    String receiver,
    List<String> groupBy,
    boolean groupByAll,
    Duration groupWait,
    Duration groupInterval,
    Duration repeatInterval,
    List<String> muteTimeIntervals,
    List<String> activeTimeIntervals) {

  /** Alertmanager's {@code DefaultRouteOpts}. */
  public static final RouteOptions DEFAULTS =
      new RouteOptions(
          "",
          List.of(),
          false,
          Duration.ofSeconds(30),
          Duration.ofMinutes(5),
          Duration.ofHours(4),
          List.of(),
          List.of());

  public RouteOptions {
    Objects.requireNonNull(receiver, "receiver");
    groupBy = List.copyOf(groupBy);
    Objects.requireNonNull(groupWait, "groupWait");
    Objects.requireNonNull(groupInterval, "groupInterval");
    Objects.requireNonNull(repeatInterval, "repeatInterval");
    muteTimeIntervals = List.copyOf(muteTimeIntervals);
    activeTimeIntervals = List.copyOf(activeTimeIntervals);
  }
}
