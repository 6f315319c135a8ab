package dev.firedrill.lab.stack;

import dev.firedrill.time.Clock;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One process of the lab (a binary or a firedrill JVM), started from an argument list with its
 * output in a log file, ready when a URL answers 200. {@code detached} puts it in a session of its
 * own ({@code setsid}, which execs in place, so the PID is the program's) so that it outlives the
 * command that started it and a Ctrl-C in that terminal.
 */
public final class ManagedProcess implements AutoCloseable {

  private static final Duration STOP_GRACE = Duration.ofSeconds(5);

  private final String name;
  private final List<String> command;
  private final Path log;
  private final Clock clock;
  private final Thread reaper;
  private Process process;

  private ManagedProcess(String name, List<String> command, Path log, Clock clock) {
    this.name = name;
    this.command = List.copyOf(command);
    this.log = log;
    this.clock = clock;
    this.reaper = new Thread(this::kill, "kill " + name);
  }

  /**
   * Starts {@code command} and waits until {@code ready} answers 200, or fails naming the log's
   * tail.
   */
  public static ManagedProcess start(
      String name,
      List<String> command,
      Path log,
      URI ready,
      Duration timeout,
      boolean detached,
      Clock clock) {
    List<String> argv = new ArrayList<>();
    if (detached) {
      argv.add("setsid");
    }
    argv.addAll(command);
    ManagedProcess managed = new ManagedProcess(name, argv, log, clock);
    // Whoever started it stops it, also when this JVM ends early; release() hands it over.
    Runtime.getRuntime().addShutdownHook(managed.reaper);
    try {
      managed.launch();
      managed.awaitReady(ready, timeout);
    } catch (RuntimeException e) {
      managed.release();
      throw e;
    }
    return managed;
  }

  public String name() {
    return name;
  }

  public long pid() {
    return process.pid();
  }

  public Path log() {
    return log;
  }

  public boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** Starts the same command again, after {@link #stop} or {@link #kill}. */
  public void restart(URI ready, Duration timeout) {
    stop();
    launch();
    awaitReady(ready, timeout);
  }

  /** SIGTERM, then SIGKILL after five seconds. */
  public void stop() {
    Process p = process;
    if (p == null || !p.isAlive()) {
      return;
    }
    p.destroy();
    try {
      if (!p.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** SIGKILL at once, like a crash. */
  public void kill() {
    Process p = process;
    if (p == null) {
      return;
    }
    p.destroyForcibly();
    try {
      p.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Leaves the process running after this JVM exits: for {@code lab up}. */
  public void release() {
    try {
      Runtime.getRuntime().removeShutdownHook(reaper);
    } catch (IllegalStateException | IllegalArgumentException e) {
      // shutting down already, or released before
    }
  }

  @Override
  public void close() {
    stop();
    release();
  }

  /** The last lines of the process's log, for failure messages. */
  public String logTail(int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  private void launch() {
    try {
      Files.createDirectories(log.getParent());
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
              .start();
    } catch (IOException e) {
      throw new IllegalStateException(
          name + ": cannot run " + command.get(0) + ": " + e.getMessage(), e);
    }
  }

  private void awaitReady(URI ready, Duration timeout) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    HttpRequest request = HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(1)).build();
    long deadline = clock.nanoTime() + timeout.toNanos();
    try {
      while (clock.nanoTime() - deadline < 0) {
        if (!process.isAlive()) {
          throw startFailure("exited with status " + process.exitValue());
        }
        try {
          if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
            return;
          }
        } catch (IOException e) {
          // not listening yet
        }
        clock.sleep(Duration.ofMillis(100));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw startFailure("was interrupted while waiting for " + ready);
    }
    throw startFailure("did not answer " + ready + " within " + timeout.toSeconds() + "s");
  }

  private IllegalStateException startFailure(String what) {
    kill();
    return new IllegalStateException(
        name
            + " "
            + what
            + "; command: "
            + String.join(" ", command)
            + "; log "
            + log
            + ", tail:\n"
            + logTail(40));
  }
}
