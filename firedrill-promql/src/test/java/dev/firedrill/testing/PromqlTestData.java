package dev.firedrill.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Prometheus's own PromQL test files, read in place and never copied into the project: from {@code
 * FIREDRILL_PROMQLTEST} when set, else {@code ../shared/promqltest} beside the checkout, else a
 * {@code shared/promqltest} beside any folder above it (a clone one level deeper still finds them).
 * Missing, the test fails when {@code CI=true} and is skipped with the reason otherwise.
 */
public final class PromqlTestData {

  private PromqlTestData() {}

  /** The directory of one version's files, such as {@code prometheus-v2.42.0}. */
  public static Path directory(String version) {
    List<Path> tried = new ArrayList<>();
    for (Path root : candidates()) {
      Path dir = root.resolve(version);
      if (Files.isDirectory(dir)) {
        return dir;
      }
      tried.add(dir);
    }
    String reason =
        "Prometheus's PromQL test files ("
            + version
            + ") are in none of "
            + tried
            + " (set FIREDRILL_PROMQLTEST to the promqltest directory; see ../shared/promqltest/README.md)";
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      Assertions.fail(reason + " (CI=true, so this fails instead of skipping)");
    }
    Assumptions.abort(reason);
    throw new AssertionError("unreachable");
  }

  private static List<Path> candidates() {
    List<Path> candidates = new ArrayList<>();
    Optional.ofNullable(System.getenv("FIREDRILL_PROMQLTEST"))
        .filter(s -> !s.isBlank())
        .map(Path::of)
        .ifPresent(candidates::add);
    Path project = Path.of("").toAbsolutePath().normalize();
    for (Path dir = project.getParent(); dir != null; dir = dir.getParent()) {
      candidates.add(dir.resolve("shared").resolve("promqltest"));
    }
    return candidates;
  }
}
