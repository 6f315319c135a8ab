package dev.firedrill.simulate;

import dev.firedrill.prometheus.PrometheusAlertsApi;
import dev.firedrill.prometheus.PrometheusClient;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.prometheus.QueryResult;
import dev.firedrill.prometheus.RuleGroup;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the live Prometheus a drill names evaluates its rule groups and scrapes its jobs within
 * their intervals, so the simulation keeps the same phases. A page takes a scrape, an evaluation of
 * the recording group and one of the alerting group after the fault: up to an interval each, set by
 * each group's offset (a hash of its file's path, which in the lab is a fresh temp dir) and each
 * target's. Simulated on phases of their own, prediction and measurement can differ by nearly three
 * intervals; on the live ones only the fault's own instant within the interval is left to differ
 * (and a real scrape or evaluation finishing late under load).
 *
 * <p>A group is known by its name and its file's name (the lab copies the rule files it is given,
 * keeping their names), and evaluates at the offset its file's live path gives it; a job's phase is
 * the timestamp of its latest {@code up} sample.
 */
public record LivePhases(List<Group> groups, Map<String, Long> lastScrapeMs) {

  /** A live rule group: its name and its file's path. */
  public record Group(String name, String file) {}

  /** No live Prometheus: the simulation's own paths and phases. */
  public static final LivePhases NONE = new LivePhases(List.of(), Map.of());

  public LivePhases {
    groups = List.copyOf(groups);
    lastScrapeMs = Map.copyOf(lastScrapeMs);
  }

  /**
   * Reads the groups' files from {@code /api/v1/rules} and the jobs' last scrapes from {@code up}.
   */
  public static <C extends PrometheusClient & PrometheusAlertsApi> LivePhases read(C prometheus)
      throws PrometheusException {
    List<Group> groups = new ArrayList<>();
    for (RuleGroup group : prometheus.rules()) {
      groups.add(new Group(group.name(), group.file()));
    }
    Map<String, Long> scrapes = new HashMap<>();
    if (prometheus.query("timestamp(up)") instanceof QueryResult.Vector vector) {
      for (QueryResult.Sample sample : vector.samples()) {
        String job = sample.labels().get("job");
        if (job != null) {
          // timestamp() answers in seconds; the scrape's own timestamp is whole milliseconds.
          scrapes.merge(job, Math.round(sample.value() * 1000), Math::max);
        }
      }
    }
    return new LivePhases(groups, scrapes);
  }

  /** The live path of the group {@code name} of a file named as {@code file}'s, if there is one. */
  public Optional<String> ruleFile(String file, String name) {
    return groups.stream()
        .filter(g -> g.name().equals(name) && fileName(g.file()).equals(fileName(file)))
        .map(Group::file)
        .findFirst();
  }

  /** When {@code job} was last scraped live, in epoch milliseconds, if it was. */
  public Optional<Long> lastScrapeMs(String job) {
    return Optional.ofNullable(lastScrapeMs.get(job));
  }

  /** How many groups and jobs have live phases, for the line saying so. */
  public String describe() {
    return groups.size() + " rule groups and " + lastScrapeMs.size() + " scrape jobs";
  }

  private static String fileName(String file) {
    Path name = Path.of(file).getFileName();
    return name == null ? file : name.toString();
  }
}
