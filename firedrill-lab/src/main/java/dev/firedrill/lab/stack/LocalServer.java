package dev.firedrill.lab.stack;

import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A server of the stack, run from its binary or embedded in a firedrill JVM, with a generated
 * config file in a directory of its own, on 127.0.0.1, ready when {@code /-/ready} answers. Closing
 * it stops it and deletes its directory.
 */
public abstract class LocalServer implements AutoCloseable {

  static final Duration READY_TIMEOUT = Duration.ofSeconds(20);

  private final Path dir;
  private final URI url;
  final ManagedProcess process;

  LocalServer(Path dir, URI url, ManagedProcess process) {
    this.dir = dir;
    this.url = url;
    this.process = process;
  }

  /**
   * Writes {@code config} to {@code configFile}, then starts {@code command} and waits for {@code
   * /-/ready}.
   */
  static ManagedProcess launch(
      String name,
      Path configFile,
      String config,
      List<String> command,
      Path dir,
      URI url,
      boolean detached,
      Clock clock) {
    try {
      Files.writeString(configFile, config);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the " + name + " config in " + dir, e);
    }
    return ManagedProcess.start(
        name,
        command,
        dir.resolve(name + ".log"),
        url.resolve("/-/ready"),
        READY_TIMEOUT,
        detached,
        clock);
  }

  /**
   * The command that runs server {@code name}: the binary with {@code binaryArgs}, or {@code
   * firedrill NAME} with {@code embeddedArgs}.
   */
  static List<String> command(
      String name, Runner runner, List<String> binaryArgs, List<String> embeddedArgs) {
    List<String> command = new ArrayList<>();
    if (runner instanceof Runner.Binary binary) {
      if (!Files.isExecutable(binary.path())) {
        throw new IllegalStateException(
            binary.path() + " is not an executable file (expected the " + name + " binary)");
      }
      command.add(binary.path().toString());
      command.addAll(binaryArgs);
    } else if (runner instanceof Runner.Embedded embedded) {
      command.addAll(embedded.firedrill());
      command.add(name);
      command.addAll(embeddedArgs);
    }
    return command;
  }

  public URI url() {
    return url;
  }

  public Path dir() {
    return dir;
  }

  public long pid() {
    return process.pid();
  }

  public Path logFile() {
    return process.log();
  }

  public String logTail(int lines) {
    return process.logTail(lines);
  }

  /** SIGTERM, then SIGKILL after 5 s; the directory stays until {@link #close}. */
  public void stop() {
    process.stop();
  }

  /** SIGKILL at once, like a crash. */
  public void kill() {
    process.kill();
  }

  public boolean isRunning() {
    return process.isAlive();
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
