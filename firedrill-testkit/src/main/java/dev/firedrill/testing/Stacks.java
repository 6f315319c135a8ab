package dev.firedrill.testing;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The Prometheus and Alertmanager pairs the real-stack tests drill against, and VictoriaMetrics.
 *
 * <p>The stable pair is Debian 12's, on the PATH (2.42 and 0.25, or {@code FIREDRILL_PROMETHEUS}
 * and {@code FIREDRILL_ALERTMANAGER}). The newer ones are Debian unstable's packages, unpacked by
 * {@code bin/fetch-stacks} (which {@code bin/install-deps --tests} runs) into {@code
 * ~/.cache/firedrill/debs/<package>_<version>/} or {@code $FIREDRILL_STACKS}: never installed, so
 * both generations sit on one machine. A missing binary skips the test with the command that brings
 * it, or fails it with {@code CI=true} ({@link RequiredBinary}).
 */
public final class Stacks {

  private static final String FETCH =
      "run bin/install-deps --tests (its bin/fetch-stacks unpacks Debian unstable's ";

  private Stacks() {}

  /** A Prometheus with its promtool, and an Alertmanager with its amtool. */
  public record Pair(String name, Path prometheus, Path promtool, Path alertmanager, Path amtool) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** victoria-metrics (single node), vmalert and vmauth from one package. */
  public record VictoriaMetrics(Path victoriaMetrics, Path vmalert, Path vmauth) {}

  /** Debian 12's Prometheus 2.42 and Alertmanager 0.25, from the PATH. */
  public static Pair stable() {
    return new Pair(
        "prometheus-2.42+alertmanager-0.25",
        RequiredBinary.find("prometheus", "FIREDRILL_PROMETHEUS", "prometheus"),
        RequiredBinary.find("promtool", "FIREDRILL_PROMTOOL", "prometheus"),
        RequiredBinary.find(
            "prometheus-alertmanager", "FIREDRILL_ALERTMANAGER", "prometheus-alertmanager"),
        RequiredBinary.find("amtool", "FIREDRILL_AMTOOL", "prometheus-alertmanager"));
  }

  /**
   * Debian unstable's Prometheus 3.x and Alertmanager 0.3x (3.5.3 and 0.33.1 when this was
   * written).
   */
  public static Pair current() {
    return new Pair(
        "prometheus-3+alertmanager-0.3x",
        unpacked("prometheus", "3.", "prometheus"),
        unpacked("promtool", "3.", "promtool"),
        unpacked("prometheus-alertmanager", "0.3", "prometheus-alertmanager"),
        unpacked("prometheus-alertmanager", "0.3", "amtool"));
  }

  /** Both pairs, for a parameterized test: the stable one first. */
  public static List<Pair> both() {
    return List.of(stable(), current());
  }

  public static VictoriaMetrics victoriaMetrics() {
    return new VictoriaMetrics(
        unpacked("victoria-metrics", "1.", "victoria-metrics"),
        unpacked("victoria-metrics", "1.", "vmalert"),
        unpacked("victoria-metrics", "1.", "vmauth"));
  }

  /** Where bin/fetch-stacks unpacks packages. */
  public static Path root() {
    String configured = System.getenv("FIREDRILL_STACKS");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    String cache = System.getenv("XDG_CACHE_HOME");
    Path base =
        cache != null && !cache.isBlank()
            ? Path.of(cache)
            : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("firedrill").resolve("debs");
  }

  /**
   * {@code usr/bin/<binary>} of the newest unpacked {@code <debianPackage>_<version>} whose version
   * starts with {@code versionPrefix}.
   */
  public static Path unpacked(String debianPackage, String versionPrefix, String binary) {
    Optional<Path> found =
        newest(debianPackage, versionPrefix).map(dir -> dir.resolve("usr/bin").resolve(binary));
    return RequiredBinary.require(
        found.filter(Files::exists),
        binary,
        "FIREDRILL_STACKS",
        () ->
            "no "
                + binary
                + " "
                + versionPrefix
                + "x under "
                + root()
                + "; "
                + FETCH
                + debianPackage
                + " there, or set FIREDRILL_STACKS to where it is)");
  }

  private static Optional<Path> newest(String debianPackage, String versionPrefix) {
    List<Path> dirs = new ArrayList<>();
    Path root = root();
    if (!Files.isDirectory(root)) {
      return Optional.empty();
    }
    try (DirectoryStream<Path> entries =
        Files.newDirectoryStream(root, debianPackage + "_" + versionPrefix + "*")) {
      entries.forEach(dirs::add);
    } catch (IOException e) {
      return Optional.empty();
    }
    return dirs.stream()
        .filter(Files::isDirectory)
        .max(Comparator.comparing(Path::toString, Stacks::compareVersions));
  }

  /** Dotted versions by number, so 3.10 comes after 3.9. */
  static int compareVersions(String a, String b) {
    String[] x = a.split("[^0-9]+");
    String[] y = b.split("[^0-9]+");
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i].isEmpty() || y[i].isEmpty()) {
        continue;
      }
      int c = new java.math.BigInteger(x[i]).compareTo(new java.math.BigInteger(y[i]));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(x.length, y.length);
  }
}
