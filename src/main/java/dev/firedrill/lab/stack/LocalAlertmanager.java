package dev.firedrill.lab.stack;

import dev.firedrill.time.Clock;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The real Alertmanager on 127.0.0.1, alone (no cluster), with a temp storage dir. */
public final class LocalAlertmanager extends LocalServer {

  /** Alertmanager's {@code --log.level} unless a caller asks for another. */
  public static final String DEFAULT_LOG_LEVEL = "info";

  private LocalAlertmanager(Path dir, URI url, ManagedProcess process) {
    super(dir, url, process);
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
    URI url = URI.create("http://127.0.0.1:" + port);
    List<String> flags = List.of(
        "--storage.path=" + dir.resolve("data"),
        "--web.listen-address=127.0.0.1:" + port,
        // Alone: no gossip port, and no waiting for peers before the first notification.
        "--cluster.listen-address=",
        "--log.level=" + logLevel);
    return new LocalAlertmanager(dir, url,
        launch("alertmanager", binary, "alertmanager.yml", config, dir, url, flags, detached, clock));
  }

}
