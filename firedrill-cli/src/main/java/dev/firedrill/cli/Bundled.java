package dev.firedrill.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * The lab's configs and the demo's drill, packed into the jar by the build (see firedrill-cli's
 * pom), so that {@code lab up} and {@code demo} work from any directory. A jar cannot list its own
 * folders, so the names are here; a test holds them to the checkout's files.
 */
final class Bundled {

  static final String ROOT = "/dev/firedrill/cli/bundled/";

  /** fixtures/lab. */
  static final List<String> LAB =
      List.of("alertmanager.yml", "prometheus.yml", "recording-rules.yml");

  /** Where {@link #extractLab} puts fixtures/lab, below its directory. */
  static final String LAB_DIR = "fixtures/lab";

  /** alert-rules/*.yml. */
  static final List<String> ALERT_RULES = List.of("checkout-slo.yml", "lab-alerts.yml");

  /** The demo's drill, from fixtures/experiments. */
  static final String DEMO_EXPERIMENT = "payments-latency.yaml";

  private Bundled() {}

  /**
   * Writes the lab's configs into {@code dir}/fixtures/lab and {@code dir}/alert-rules, the
   * checkout's layout, so prometheus.yml's relative rule_files hold; returns dir.
   */
  static Path extractLab(Path dir) {
    for (String name : LAB) {
      copy("lab/" + name, dir.resolve(LAB_DIR).resolve(name));
    }
    for (String name : ALERT_RULES) {
      copy("alert-rules/" + name, dir.resolve("alert-rules").resolve(name));
    }
    return dir;
  }

  /** Writes the demo's drill into {@code dir}; returns the file. */
  static Path extractDemoExperiment(Path dir) {
    Path file = dir.resolve(DEMO_EXPERIMENT);
    copy("experiments/" + DEMO_EXPERIMENT, file);
    return file;
  }

  private static void copy(String resource, Path target) {
    try (InputStream in = Bundled.class.getResourceAsStream(ROOT + resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "this firedrill was built without its bundled "
                + resource
                + " (rebuild it with mvn package)");
      }
      Files.createDirectories(target.getParent());
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
    }
  }
}
