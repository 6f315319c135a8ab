package dev.firedrill.spring.chaosmonkey;

import java.util.ArrayList;
import java.util.List;

/**
 * Which beans Chaos Monkey attacks, by stereotype. The watchers a drill does not name are switched
 * off, so the assault touches exactly what the file says.
 */
public record Watchers(
    boolean controller,
    boolean restController,
    boolean service,
    boolean repository,
    boolean component) {

  /** The keys in the file, in order. */
  public static final List<String> KEYS =
      List.of("controller", "rest_controller", "service", "repository", "component");

  public Watchers {
    if (!(controller || restController || service || repository || component)) {
      throw new IllegalArgumentException("at least one watcher must be on");
    }
  }

  /** The file's keys of the watchers that are on. */
  public List<String> on() {
    List<String> on = new ArrayList<>();
    boolean[] values = {controller, restController, service, repository, component};
    for (int i = 0; i < values.length; i++) {
      if (values[i]) {
        on.add(KEYS.get(i));
      }
    }
    return on;
  }
}
