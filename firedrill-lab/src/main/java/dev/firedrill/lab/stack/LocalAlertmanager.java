package dev.firedrill.lab.stack;

import dev.firedrill.time.Clock;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An Alertmanager on 127.0.0.1, the real one alone (no cluster) with a temp storage dir, or the
 * embedded one.
 */
public final class LocalAlertmanager extends LocalServer {

  /** Alertmanager's {@code --log.level} unless a caller asks for another. */
  public static final String DEFAULT_LOG_LEVEL = "info";

  private LocalAlertmanager(Path dir, URI url, ManagedProcess process) {
    super(dir, url, process);
  }

  /**
   * {@code $FIREDRILL_ALERTMANAGER}, or Debian's {@code prometheus-alertmanager}, or {@code
   * alertmanager}, in the environment {@code env}.
   */
  public static Optional<Path> findBinary(Map<String, String> env) {
    return Binaries.find(env, "FIREDRILL_ALERTMANAGER", "prometheus-alertmanager", "alertmanager");
  }

  public static LocalAlertmanager start(
      Path binary, int port, String config, Path dir, boolean detached, Clock clock) {
    return start(binary, port, config, dir, detached, clock, DEFAULT_LOG_LEVEL);
  }

  /**
   * As {@link #start(Path, int, String, Path, boolean, Clock)} with Alertmanager's {@code
   * --log.level} (debug, info, warn or error); debug logs every notification sent ("Notify
   * success").
   */
  public static LocalAlertmanager start(
      Path binary,
      int port,
      String config,
      Path dir,
      boolean detached,
      Clock clock,
      String logLevel) {
    return start(new Runner.Binary(binary), port, config, dir, detached, clock, logLevel);
  }

  /**
   * The real binary or the embedded Alertmanager; the embedded one has no log levels (it logs the
   * notifications that failed).
   */
  public static LocalAlertmanager start(
      Runner runner,
      int port,
      String config,
      Path dir,
      boolean detached,
      Clock clock,
      String logLevel) {
    if (!List.of("debug", "info", "warn", "error").contains(logLevel)) {
      throw new IllegalArgumentException(
          "Alertmanager log level \"" + logLevel + "\" is not one of debug, info, warn, error");
    }
    URI url = URI.create("http://127.0.0.1:" + port);
    Path file = dir.resolve("alertmanager.yml");
    String listen = "127.0.0.1:" + port;
    List<String> command =
        command(
            "alertmanager",
            runner,
            List.of(
                "--config.file=" + file,
                "--storage.path=" + dir.resolve("data"),
                "--web.listen-address=" + listen,
                // Alone: no gossip port, and no waiting for peers before the first notification.
                "--cluster.listen-address=",
                "--log.level=" + logLevel),
            List.of("--config", file.toString(), "--listen", listen));
    return new LocalAlertmanager(
        dir, url, launch("alertmanager", file, config, command, dir, url, detached, clock));
  }
}
