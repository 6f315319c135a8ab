package dev.firedrill.lab.stack;

import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The real Alertmanager on 127.0.0.1, alone (no cluster), with a temp storage dir. */
public final class LocalAlertmanager implements AutoCloseable {

  static final Duration READY_TIMEOUT = Duration.ofSeconds(20);
  /** Alertmanager's {@code --log.level} unless a caller asks for another. */
  public static final String DEFAULT_LOG_LEVEL = "info";

  private final Path dir;
  private final URI url;
  private final ManagedProcess process;

  private LocalAlertmanager(Path dir, URI url, ManagedProcess process) {
    this.dir = dir;
    this.url = url;
    this.process = process;
  }

  /** {@code $FIREDRILL_ALERTMANAGER}, or Debian's {@code prometheus-alertmanager}, or {@code alertmanager}. */
  public static Optional<Path> findBinary() {
    return Binaries.find("FIREDRILL_ALERTMANAGER", "prometheus-alertmanager", "alertmanager");
  }

  public static LocalAlertmanager start(Path binary, int port, String config, Path dir, boolean detached, Clock clock) {
    return start(binary, port, config, dir, detached, clock, DEFAULT_LOG_LEVEL);
  }

  /**
   * As {@link #start(Path, int, String, Path, boolean, Clock)} with Alertmanager's {@code --log.level}
   * (debug, info, warn or error); debug logs every notification sent ("Notify success").
   */
  public static LocalAlertmanager start(Path binary, int port, String config, Path dir, boolean detached, Clock clock,
      String logLevel) {
    if (!List.of("debug", "info", "warn", "error").contains(logLevel)) {
      throw new IllegalArgumentException("Alertmanager log level \"" + logLevel
          + "\" is not one of debug, info, warn, error");
    }
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException(binary + " is not an executable file (expected the alertmanager binary)");
    }
    try {
      Files.writeString(dir.resolve("alertmanager.yml"), config);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the Alertmanager config in " + dir, e);
    }
    URI url = URI.create("http://127.0.0.1:" + port);
    List<String> command = List.of(
        binary.toString(),
        "--config.file=" + dir.resolve("alertmanager.yml"),
        "--storage.path=" + dir.resolve("data"),
        "--web.listen-address=127.0.0.1:" + port,
        // Alone: no gossip port, and no waiting for peers before the first notification.
        "--cluster.listen-address=",
        "--log.level=" + logLevel);
    ManagedProcess process = ManagedProcess.start("alertmanager", command, dir.resolve("alertmanager.log"),
        url.resolve("/-/ready"), READY_TIMEOUT, detached, clock);
    return new LocalAlertmanager(dir, url, process);
  }

  public URI url() {
    return url;
  }

  public long pid() {
    return process.pid();
  }

  public Path logFile() {
    return process.log();
  }

  public void stop() {
    process.stop();
  }

  /** Leaves the process running after this JVM exits: for {@code lab up}. */
  public void release() {
    process.release();
  }

  @Override
  public void close() {
    process.close();
    TempDirs.delete(dir);
  }
}
