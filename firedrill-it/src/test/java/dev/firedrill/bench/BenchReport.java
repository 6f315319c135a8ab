package dev.firedrill.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A block of figures: printed to stdout and written to {@code target/bench/<name>.txt}. Public for
 * the benchmarks that live beside their drivers (the kill matrix's).
 */
public final class BenchReport {

  private final String name;
  private final StringBuilder text = new StringBuilder();

  public BenchReport(String name) {
    this.name = name;
    line("==== " + name + " ====");
  }

  public BenchReport line(String format, Object... args) {
    text.append(String.format(Locale.ROOT, format, args)).append('\n');
    return this;
  }

  /** Prints the block and writes it beside the build's other output; returns the file. */
  public Path finish() {
    line(
        "host: %d cores, java %s, %s %s; load average (1, 5, 15 min) at the end: %s",
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"),
        System.getProperty("os.name"),
        System.getProperty("os.version"),
        loadAverage());
    line("==== end of " + name + " ====");
    System.out.print(text);
    System.out.flush();
    Path dir = Path.of(System.getProperty("basedir", ".")).resolve("target").resolve("bench");
    Path file = dir.resolve(name + ".txt");
    try {
      Files.createDirectories(dir);
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
    System.out.println("(written to " + file.toAbsolutePath().normalize() + ")");
    return file;
  }

  /** The host's load average, which says whether other work competed for the 2 cores. */
  private static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  static double max(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  static double min(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
  }
}
