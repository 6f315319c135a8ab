package dev.firedrill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code firedrill validate} on a 200-line experiment as a fresh JVM, as a user or a CI step runs
 * it, beside {@code firedrill --version} (JVM start plus picocli, nothing else) so the difference
 * shows what loading and checking the file adds. Figures only: nothing about time is asserted.
 */
class ValidateColdStartBenchmark {

  static final int RUNS = 10;
  static final String FIXTURE = "fixtures/experiments/large-200-lines.yaml";

  record Timed(double seconds, String output) {}

  @Test
  void validateLargeExperimentInAFreshJvm() throws Exception {
    String jar = System.getenv("FIREDRILL_JAR");
    assertThat(jar)
        .as("FIREDRILL_JAR (bin/bench runs this through failsafe, which sets it)")
        .isNotBlank();
    Path base = Path.of(System.getProperty("basedir", "."));
    Path fixture = base.resolve(FIXTURE);
    assertThat(fixture).isRegularFile();
    long lines = Files.readAllLines(fixture).size();
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> validate = List.of(java, "-jar", jar, "validate", FIXTURE);
    List<String> version = List.of(java, "-jar", jar, "--version");

    // One warm-up of each: the jar and the JDK's files in the page cache, nothing else carried
    // over.
    Timed warmValidate = time(validate, base);
    Timed warmVersion = time(version, base);
    assertThat(warmValidate.output()).contains("valid: experiment shop-wide-cpu-pressure");
    assertThat(warmVersion.output()).startsWith("firedrill ");

    List<Double> validateTimes = new ArrayList<>();
    List<Double> versionTimes = new ArrayList<>();
    for (int i = 0; i < RUNS; i++) { // interleaved, so drift on the host hits both alike
      Timed v = time(validate, base);
      assertThat(v.output()).contains("valid: experiment shop-wide-cpu-pressure");
      validateTimes.add(v.seconds());
      Timed b = time(version, base);
      assertThat(b.output()).startsWith("firedrill ");
      versionTimes.add(b.seconds());
    }

    BenchReport report = new BenchReport("ValidateColdStartBenchmark");
    report.line(
        "command:  java -jar firedrill.jar validate %s  (%d lines; fresh JVM per run)",
        FIXTURE, lines);
    report.line("baseline: java -jar firedrill.jar --version  (same JVM start, no file)");
    report.line("output:   %s", warmValidate.output().strip());
    report.line("runs: %d each, interleaved, after 1 warm-up run each (disk cache only)", RUNS);
    report.line("");
    report.line("%-4s  %12s  %12s", "run", "validate s", "--version s");
    for (int i = 0; i < RUNS; i++) {
      report.line("%-4d  %12.3f  %12.3f", i + 1, validateTimes.get(i), versionTimes.get(i));
    }
    double medianValidate = BenchReport.median(validateTimes);
    double medianVersion = BenchReport.median(versionTimes);
    report.line("");
    report.line(
        "validate:  median %.3f s, max %.3f s, min %.3f s   (target: under 1 s)",
        medianValidate, BenchReport.max(validateTimes), BenchReport.min(validateTimes));
    report.line(
        "--version: median %.3f s, max %.3f s, min %.3f s",
        medianVersion, BenchReport.max(versionTimes), BenchReport.min(versionTimes));
    report.line(
        "validation adds %.3f s over JVM start (median against median); ratio validate / --version = %.2f",
        medianValidate - medianVersion, medianValidate / medianVersion);
    report.line(
        "target met (max under 1 s): %s", BenchReport.max(validateTimes) < 1.0 ? "yes" : "NO");
    report.finish();
  }

  /** Wall time from start to exit of one fresh JVM; fails unless it exits 0. */
  private static Timed time(List<String> command, Path dir) throws Exception {
    File out = File.createTempFile("firedrill-bench", ".out");
    try {
      long start = System.nanoTime();
      Process process =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectErrorStream(true)
              .redirectOutput(out)
              .start();
      boolean done = process.waitFor(60, TimeUnit.SECONDS);
      long end = System.nanoTime();
      if (!done) {
        process.destroyForcibly();
      }
      String output = Files.readString(out.toPath(), StandardCharsets.UTF_8);
      assertThat(done).as("%s finished within 60s", command).isTrue();
      assertThat(process.exitValue()).as("exit of %s; output: %s", command, output).isZero();
      return new Timed((end - start) / 1e9, output);
    } finally {
      Files.deleteIfExists(out.toPath());
    }
  }
}
