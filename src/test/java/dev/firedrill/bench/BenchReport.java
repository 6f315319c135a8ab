package dev.firedrill.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A block of figures: printed to stdout and written to {@code target/bench/<name>.txt}. */
final class BenchReport {

  private final String name;
  private final StringBuilder text = new StringBuilder();

  BenchReport(String name) {
    this.name = name;
    line("==== " + name + " ====");
    line("host: " + Runtime.getRuntime().availableProcessors() + " cores, java " + System.getProperty("java.version")
        + ", " + System.getProperty("os.name") + " " + System.getProperty("os.version"));
  }

  BenchReport line(String format, Object... args) {
    text.append(String.format(Locale.ROOT, format, args)).append('\n');
    return this;
  }

  /** Prints the block and writes it beside the build's other output; returns the file. */
  Path finish() {
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
