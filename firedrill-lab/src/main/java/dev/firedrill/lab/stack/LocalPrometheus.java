package dev.firedrill.lab.stack;

import dev.firedrill.net.Loopback;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A Prometheus on 127.0.0.1, the real binary with a temp storage dir or the embedded one, with 1 s
 * scrape and evaluation intervals, and a one-second alert resend delay (the default minute would
 * delay the first notification whenever the first send is dropped).
 */
public final class LocalPrometheus extends LocalServer {

  public static final String JOB = "demo";

  private LocalPrometheus(Path dir, URI url, ManagedProcess process) {
    super(dir, url, process);
  }

  /**
   * {@code $FIREDRILL_PROMETHEUS}, or {@code prometheus} on the PATH, in the environment {@code
   * env}.
   */
  public static Optional<Path> findBinary(Map<String, String> env) {
    return Binaries.find(env, "FIREDRILL_PROMETHEUS", "prometheus");
  }

  /**
   * Scrapes {@code targets} ({@code host:port}) as job {@code demo}, with rule files given as YAML
   * text.
   */
  public static LocalPrometheus start(
      Path binary, List<String> targets, List<String> ruleFiles, Clock clock) {
    IllegalStateException last = null;
    for (int attempt = 0;
        attempt < 3;
        attempt++) { // a free port can be taken before Prometheus binds it
      Path dir = TempDirs.create("firedrill-prometheus-");
      StringBuilder config = new StringBuilder(global());
      try {
        if (!ruleFiles.isEmpty()) {
          config.append("rule_files:\n");
          for (int i = 0; i < ruleFiles.size(); i++) {
            Path rules = Files.writeString(dir.resolve("rules-" + i + ".yml"), ruleFiles.get(i));
            config.append("  - '").append(rules).append("'\n");
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write Prometheus rule files in " + dir, e);
      }
      config
          .append("scrape_configs:\n  - job_name: ")
          .append(JOB)
          .append("\n    static_configs:\n      - targets: [");
      for (int i = 0; i < targets.size(); i++) {
        config.append(i == 0 ? "" : ", ").append('\'').append(targets.get(i)).append('\'');
      }
      config.append("]\n");
      try {
        return start(binary, Loopback.freePort(), config.toString(), dir, false, clock);
      } catch (IllegalStateException e) {
        TempDirs.delete(dir);
        last = e;
        if (!e.getMessage().contains("address already in use")) {
          break;
        }
      }
    }
    throw last;
  }

  /** The global section every generated config starts with. */
  public static String global() {
    return "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n";
  }

  /** Runs {@code config} on {@code port}, keeping its data and log in {@code dir}. */
  public static LocalPrometheus start(
      Path binary, int port, String config, Path dir, boolean detached, Clock clock) {
    return start(new Runner.Binary(binary), port, config, dir, detached, clock);
  }

  /**
   * As {@link #start(Path, int, String, Path, boolean, Clock)}, the real binary or the embedded
   * Prometheus.
   */
  public static LocalPrometheus start(
      Runner runner, int port, String config, Path dir, boolean detached, Clock clock) {
    return start(runner, port, config, dir, detached, clock, List.of());
  }

  /**
   * As above, the real binary also given {@code binaryFlags} (such as {@code
   * --enable-feature=...}); the embedded Prometheus has no use for them.
   */
  public static LocalPrometheus start(
      Runner runner,
      int port,
      String config,
      Path dir,
      boolean detached,
      Clock clock,
      List<String> binaryFlags) {
    URI url = URI.create("http://127.0.0.1:" + port);
    Path file = dir.resolve("prometheus.yml");
    String listen = "127.0.0.1:" + port;
    List<String> command = command(runner, file, dir, listen, binaryFlags);
    return new LocalPrometheus(
        dir, url, launch("prometheus", file, config, command, dir, url, detached, clock));
  }

  /** Starts Prometheus again after {@link #stop} or {@link #kill}, same port and data. */
  public void restart() {
    process.restart(url().resolve("/-/ready"), READY_TIMEOUT);
  }

  /**
   * The command line of {@code runner} serving {@code file} on {@code listen}, data in {@code dir}.
   */
  static List<String> command(
      Runner runner, Path file, Path dir, String listen, List<String> binaryFlags) {
    List<String> binaryArgs =
        new ArrayList<>(
            List.of(
                "--config.file=" + file,
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=" + listen,
                "--rules.alert.resend-delay=1s",
                "--log.level=info"));
    binaryArgs.addAll(binaryFlags);
    return LocalServer.command(
        "prometheus",
        runner,
        binaryArgs,
        List.of(
            "--config",
            file.toString(),
            "--listen",
            listen,
            "--resend-delay",
            "1s",
            "--compat",
            String.valueOf(
                runner instanceof Runner.Embedded e
                    ? e.compat()
                    : Runner.Embedded.DEFAULT_COMPAT)));
  }
}
