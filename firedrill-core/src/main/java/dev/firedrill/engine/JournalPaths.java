package dev.firedrill.engine;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Where journals go when no path is given, and the files that sit beside one. Names carry the
 * experiment and the UTC second, so runs sort by time and never overwrite each other.
 */
public final class JournalPaths {

  /** The default journals directory; the detection history lives there too. */
  public static final Path DIRECTORY = Path.of("journals");

  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

  private JournalPaths() {}

  /** {@code journals/<id>-<UTC time>.json}. */
  public static Path run(String experimentId, Instant at) {
    return DIRECTORY.resolve(experimentId + "-" + STAMP.format(at) + ".json");
  }

  /** {@code journals/<id>-simulated-<UTC time>.json}: a prediction is never taken for a run. */
  public static Path simulation(String experimentId, Instant at) {
    return DIRECTORY.resolve(experimentId + "-simulated-" + STAMP.format(at) + ".json");
  }

  /**
   * {@code journals/demo-<UTC time>}: a demo's own directory, for its experiment copy, journal and
   * lab logs.
   */
  public static Path demoDirectory(Instant at) {
    return DIRECTORY.resolve("demo-" + STAMP.format(at));
  }

  /**
   * {@code <directory>/<id>.journal.json}: the journal of a drill that has a directory to itself.
   */
  public static Path inDirectory(Path directory, String experimentId) {
    return directory.resolve(experimentId + ".journal.json");
  }

  /** {@code drills/x.journal.json} with {@code suffix} ".html" is {@code drills/x.journal.html}. */
  public static Path beside(Path journal, String suffix) {
    String name = journal.getFileName().toString();
    String stem =
        name.endsWith(".json") ? name.substring(0, name.length() - ".json".length()) : name;
    return journal.resolveSibling(stem + suffix);
  }
}
