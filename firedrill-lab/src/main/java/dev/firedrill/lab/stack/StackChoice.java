package dev.firedrill.lab.stack;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which Prometheus and Alertmanager the lab runs, and a line for each saying which and why: the
 * real ones when they are on the PATH (or named by their environment variable), else the embedded
 * ones, so that a machine with only Java runs the lab too.
 */
public record StackChoice(Runner prometheus, Runner alertmanager, List<String> lines) {

  /**
   * {@code auto}: real where installed, embedded elsewhere; {@code real} and {@code embedded}
   * insist.
   */
  public enum Mode {
    AUTO,
    REAL,
    EMBEDDED
  }

  public StackChoice {
    lines = List.copyOf(lines);
  }

  /** Looks the binaries up in {@code env} ({@code PATH} and the FIREDRILL_* variables). */
  public static StackChoice choose(Mode mode, Map<String, String> env, List<String> firedrill) {
    return choose(mode, env, firedrill, Runner.Embedded.DEFAULT_COMPAT);
  }

  /**
   * As above; an embedded Prometheus answers as Prometheus {@code compat} (2 or 3), and its line
   * says so. The real binary answers as its own version.
   */
  public static StackChoice choose(
      Mode mode, Map<String, String> env, List<String> firedrill, int compat) {
    Runner.Embedded embedded = new Runner.Embedded(firedrill, compat);
    Pick prometheus =
        pick(
            mode,
            "Prometheus",
            "prometheus",
            "FIREDRILL_PROMETHEUS",
            "prometheus",
            LocalPrometheus.findBinary(env),
            embedded);
    if (prometheus.runner() instanceof Runner.Embedded) {
      prometheus =
          new Pick(prometheus.runner(), prometheus.line() + ", PromQL of Prometheus " + compat);
    }
    Pick alertmanager =
        pick(
            mode,
            "Alertmanager",
            "prometheus-alertmanager",
            "FIREDRILL_ALERTMANAGER",
            "prometheus-alertmanager",
            LocalAlertmanager.findBinary(env),
            embedded);
    return new StackChoice(
        prometheus.runner(),
        alertmanager.runner(),
        List.of(prometheus.line(), alertmanager.line()));
  }

  private record Pick(Runner runner, String line) {}

  private static Pick pick(
      Mode mode,
      String title,
      String binary,
      String environmentVariable,
      String debianPackage,
      Optional<Path> found,
      Runner.Embedded embedded) {
    Optional<Pick> real =
        found.map(path -> new Pick(new Runner.Binary(path), title + ": real, " + path));
    return switch (mode) {
      case EMBEDDED -> new Pick(embedded, title + ": embedded (--stack embedded)");
      case REAL ->
          real.orElseThrow(
              () ->
                  new IllegalArgumentException(
                      Binaries.missing(binary, environmentVariable, debianPackage)
                          + "; or run the embedded one with --stack embedded"));
      case AUTO ->
          real.orElseGet(
              () ->
                  new Pick(
                      embedded,
                      title
                          + ": embedded (no "
                          + binary
                          + " on PATH; sudo apt-get install "
                          + debianPackage
                          + " for the real one)"));
    };
  }
}
