package dev.firedrill.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.firedrill.net.Loopback;
import dev.firedrill.time.Clock;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The packaged firedrill jar as a child process, the way users run it (failsafe sets {@code
 * FIREDRILL_JAR}).
 */
public final class FiredrillJar {

  /** How a finished run ended: its exit code and everything it printed. */
  public record Run(int exit, String output) {}

  private FiredrillJar() {}

  public static List<String> command(String... args) {
    return command(List.of(), args);
  }

  /** With JVM options before {@code -jar}, such as a test-only system property. */
  public static List<String> command(List<String> jvmOptions, String... args) {
    String jar = System.getenv("FIREDRILL_JAR");
    assertThat(jar).as("FIREDRILL_JAR (set by failsafe to the shaded jar)").isNotBlank();
    assertThat(Path.of(jar)).as("FIREDRILL_JAR").isRegularFile();
    List<String> command = new ArrayList<>(List.of(Procs.java()));
    command.addAll(jvmOptions);
    command.addAll(List.of("-jar", jar));
    command.addAll(List.of(args));
    return command;
  }

  /** Starts firedrill in {@code dir}, its stdout and stderr in the given files. */
  public static Process start(Path dir, Path out, Path err, String... args) throws IOException {
    return start(dir, out, err, List.of(), args);
  }

  /**
   * As {@link #start(Path, Path, Path, String...)}, with {@code environment} added to this JVM's.
   */
  public static Process start(
      Path dir, Path out, Path err, Map<String, String> environment, String... args)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command(args));
    builder.environment().putAll(environment);
    return builder
        .directory(dir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(out.toFile())
        .redirectError(err.toFile())
        .start();
  }

  /** As {@link #start(Path, Path, Path, String...)}, with JVM options before {@code -jar}. */
  public static Process start(Path dir, Path out, Path err, List<String> jvmOptions, String... args)
      throws IOException {
    return start(dir, out, err, jvmOptions, Map.of(), args);
  }

  /** With JVM options before {@code -jar} and {@code environment} added to this JVM's. */
  public static Process start(
      Path dir,
      Path out,
      Path err,
      List<String> jvmOptions,
      Map<String, String> environment,
      String... args)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command(jvmOptions, args));
    builder.environment().putAll(environment);
    return builder
        .directory(dir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(out.toFile())
        .redirectError(err.toFile())
        .start();
  }

  /**
   * Runs firedrill in {@code dir} to its end, failing the test when it takes longer than {@code
   * limit}.
   */
  public static Run run(Path dir, Duration limit, String... args)
      throws IOException, InterruptedException {
    return run(dir, limit, Map.of(), args);
  }

  /** As {@link #run(Path, Duration, String...)}, with {@code environment} added to this JVM's. */
  public static Run run(Path dir, Duration limit, Map<String, String> environment, String... args)
      throws IOException, InterruptedException {
    return runToEnd(command(args), dir, environment, limit, args);
  }

  /** As {@link #run(Path, Duration, String...)}, with JVM options before {@code -jar}. */
  public static Run run(Path dir, Duration limit, List<String> jvmOptions, String... args)
      throws IOException, InterruptedException {
    return runToEnd(command(jvmOptions, args), dir, Map.of(), limit, args);
  }

  /** With JVM options before {@code -jar} and {@code environment} added to this JVM's. */
  public static Run run(
      Path dir,
      Duration limit,
      List<String> jvmOptions,
      Map<String, String> environment,
      String... args)
      throws IOException, InterruptedException {
    return runToEnd(command(jvmOptions, args), dir, environment, limit, args);
  }

  /**
   * Runs {@code command} (firedrill with {@code args}, from the jar or from this build's classes)
   * in {@code dir} with {@code environment} added, to its end; fails the test after {@code limit}.
   */
  static Run runToEnd(
      List<String> command,
      Path dir,
      Map<String, String> environment,
      Duration limit,
      String... args)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("firedrill-", ".out");
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(environment);
    Process process =
        builder
            .directory(dir.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
      fail(
          "firedrill "
              + String.join(" ", args)
              + " did not finish within "
              + limit.toSeconds()
              + "s; output: "
              + Files.readString(out));
    }
    String output = Files.readString(out);
    Files.deleteIfExists(out);
    return new Run(process.exitValue(), output);
  }

  /**
   * Starts a long-running firedrill command (such as {@code prometheus} or {@code alertmanager}) in
   * {@code dir}, its output in {@code dir/out.log} and {@code dir/err.log}, and waits until {@code
   * url/-/ready} answers 200; fails the test with its error output when it exits or is not ready
   * within 30 s.
   */
  /** A {@code firedrill prometheus} a test started: its process, and where it answers. */
  public record Prometheus(Process process, URI url) {}

  /**
   * {@code firedrill prometheus} in {@code dir} with {@code config}, in PromQL mode {@code compat},
   * on a free loopback port, once it answers; the caller stops it with {@link #stop}.
   */
  public static Prometheus startPrometheus(Path dir, Path config, int compat)
      throws IOException, InterruptedException {
    int port = Loopback.freePort();
    URI url = URI.create("http://127.0.0.1:" + port);
    Process process =
        startServer(
            dir,
            url,
            "prometheus",
            "--config",
            config.toString(),
            "--listen",
            "127.0.0.1:" + port,
            "--compat",
            String.valueOf(compat));
    return new Prometheus(process, url);
  }

  public static Process startServer(Path dir, URI url, String... args)
      throws IOException, InterruptedException {
    Process process = start(dir, dir.resolve("out.log"), dir.resolve("err.log"), args);
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    Clock clock = Clock.system();
    long deadline = clock.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (clock.nanoTime() - deadline < 0) {
      if (!process.isAlive()) {
        fail(
            "firedrill "
                + args[0]
                + " exited with "
                + process.exitValue()
                + ": "
                + Files.readString(dir.resolve("err.log")));
      }
      try {
        if (http.send(
                    HttpRequest.newBuilder(url.resolve("/-/ready")).build(),
                    HttpResponse.BodyHandlers.discarding())
                .statusCode()
            == 200) {
          return process;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      clock.sleep(Duration.ofMillis(100));
    }
    stop(process);
    return fail(
        "firedrill "
            + args[0]
            + " was not ready within 30s: "
            + Files.readString(dir.resolve("err.log")));
  }

  /** Stops a process started by {@link #startServer}: SIGTERM, then SIGKILL after 10 s. */
  public static void stop(Process process) throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
