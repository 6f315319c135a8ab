package dev.firedrill.lab;

import dev.firedrill.time.Clock;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The real {@code prometheus} binary on 127.0.0.1, a free port and a temp dir, scraping the given
 * targets every second (job {@code demo}) and evaluating the given rule files every second.
 */
public final class LocalPrometheus implements AutoCloseable {

  public static final String JOB = "demo";
  static final Duration READY_TIMEOUT = Duration.ofSeconds(20);

  private final Path dir;
  private final URI url;
  private final List<String> command;
  private final Clock clock;
  private final Thread reaper;
  private Process process;

  private LocalPrometheus(Path dir, URI url, List<String> command, Clock clock) {
    this.dir = dir;
    this.url = url;
    this.command = command;
    this.clock = clock;
    this.reaper = new Thread(this::kill, "kill prometheus " + url);
  }

  /** {@code $FIREDRILL_PROMETHEUS}, or {@code prometheus} on the PATH. */
  public static Optional<Path> findBinary() {
    String configured = System.getenv("FIREDRILL_PROMETHEUS");
    if (configured != null && !configured.isBlank()) {
      return Optional.of(Path.of(configured));
    }
    String pathVar = Optional.ofNullable(System.getenv("PATH")).orElse("");
    for (String entry : pathVar.split(File.pathSeparator)) {
      if (!entry.isEmpty() && Files.isExecutable(Path.of(entry, "prometheus"))) {
        return Optional.of(Path.of(entry, "prometheus"));
      }
    }
    return Optional.empty();
  }

  /** Starts Prometheus scraping {@code targets} ({@code host:port}), with rule files as YAML text, and waits until ready. */
  public static LocalPrometheus start(Path binary, List<String> targets, List<String> ruleFiles, Clock clock) {
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException(binary + " is not an executable file (expected the prometheus binary)");
    }
    IllegalStateException last = null;
    for (int attempt = 0; attempt < 3; attempt++) { // a free port can be taken before Prometheus binds it
      Path dir = tempDir();
      try {
        LocalPrometheus prometheus = prepare(binary, dir, targets, ruleFiles, clock);
        Runtime.getRuntime().addShutdownHook(prometheus.reaper);
        try {
          prometheus.launch();
        } catch (RuntimeException e) {
          Runtime.getRuntime().removeShutdownHook(prometheus.reaper);
          throw e;
        }
        return prometheus;
      } catch (IllegalStateException e) {
        delete(dir);
        last = e;
        if (!e.getMessage().contains("address already in use")) {
          break;
        }
      }
    }
    throw last;
  }

  public URI url() {
    return url;
  }

  /** Where Prometheus's output goes. */
  public Path logFile() {
    return dir.resolve("prometheus.log");
  }

  /** Stops Prometheus (SIGTERM, then SIGKILL after 5 s); the temp dir stays until {@link #close}. */
  public void stop() {
    Process p = process;
    if (p == null) {
      return;
    }
    p.destroy();
    try {
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** Kills Prometheus at once (SIGKILL), like a crash. */
  public void kill() {
    Process p = process;
    if (p == null) {
      return;
    }
    p.destroyForcibly();
    try {
      p.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Starts Prometheus again after {@link #stop} or {@link #kill}, same port and data. */
  public void restart() {
    stop();
    launch();
  }

  public boolean isRunning() {
    return process != null && process.isAlive();
  }

  @Override
  public void close() {
    stop();
    try {
      Runtime.getRuntime().removeShutdownHook(reaper);
    } catch (IllegalStateException | IllegalArgumentException e) {
      // shutting down already, or never registered
    }
    delete(dir);
  }

  /** The last lines of Prometheus's log, for failure messages. */
  public String logTail(int lines) {
    try {
      List<String> all = Files.readAllLines(logFile(), StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  private static LocalPrometheus prepare(Path binary, Path dir, List<String> targets, List<String> ruleFiles, Clock clock) {
    int port = freePort();
    StringBuilder config = new StringBuilder()
        .append("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n");
    try {
      if (!ruleFiles.isEmpty()) {
        config.append("rule_files:\n");
        for (int i = 0; i < ruleFiles.size(); i++) {
          Path rules = Files.writeString(dir.resolve("rules-" + i + ".yml"), ruleFiles.get(i));
          config.append("  - '").append(rules).append("'\n");
        }
      }
      config.append("scrape_configs:\n  - job_name: ").append(JOB).append("\n    static_configs:\n      - targets: [");
      for (int i = 0; i < targets.size(); i++) {
        config.append(i == 0 ? "" : ", ").append('\'').append(targets.get(i)).append('\'');
      }
      config.append("]\n");
      Files.writeString(dir.resolve("prometheus.yml"), config);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the Prometheus config in " + dir, e);
    }
    List<String> command = List.of(
        binary.toString(),
        "--config.file=" + dir.resolve("prometheus.yml"),
        "--storage.tsdb.path=" + dir.resolve("data"),
        "--web.listen-address=127.0.0.1:" + port,
        "--rules.alert.resend-delay=1s",
        "--log.level=info");
    return new LocalPrometheus(dir, URI.create("http://127.0.0.1:" + port), command, clock);
  }

  private void launch() {
    try {
      process = new ProcessBuilder(command)
          .directory(dir.toFile())
          .redirectErrorStream(true)
          .redirectOutput(logFile().toFile())
          .start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + command.get(0) + ": " + e.getMessage(), e);
    }
    awaitReady();
  }

  private void awaitReady() {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    HttpRequest ready = HttpRequest.newBuilder(url.resolve("/-/ready")).timeout(Duration.ofSeconds(1)).build();
    long deadline = clock.nanoTime() + READY_TIMEOUT.toNanos();
    while (clock.nanoTime() - deadline < 0) {
      if (!process.isAlive()) {
        throw startFailure("exited with status " + process.exitValue());
      }
      try {
        if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
        clock.sleep(Duration.ofMillis(100));
      } catch (IOException e) {
        sleepOrFail();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw startFailure("was interrupted while waiting");
      }
    }
    throw startFailure("was not ready within " + READY_TIMEOUT.toSeconds() + "s");
  }

  private void sleepOrFail() {
    try {
      clock.sleep(Duration.ofMillis(100));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw startFailure("was interrupted while waiting");
    }
  }

  private IllegalStateException startFailure(String what) {
    kill();
    return new IllegalStateException("prometheus at " + url + " " + what + "; command: "
        + String.join(" ", command) + "; log tail:\n" + logTail(40));
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free port on 127.0.0.1", e);
    }
  }

  private static Path tempDir() {
    try {
      return Files.createTempDirectory("firedrill-prometheus-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temp dir for Prometheus", e);
    }
  }

  private static void delete(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: a temp dir left behind is not worth failing a drill for
    }
  }
}
