package dev.firedrill.fault;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of a {@code command} fault's argument lists, without a shell, in firedrill's own
 * environment (where the injector's credentials come from) plus what the fault adds, and ends it at
 * its timeout.
 */
final class CommandRunner {

  /** The most of a command's stdout that is read: a state is short, such as an experiment id. */
  static final int MAX_OUTPUT = 64 * 1024;

  /** How much of a failed command's stderr a message quotes, from its end. */
  static final int STDERR_TAIL = 400;

  /** How a command ended: its exit code (-1 when it timed out), its stdout and stderr. */
  record Result(int exit, boolean timedOut, String stdout, String stderr) {

    boolean ok() {
      return !timedOut && exit == 0;
    }

    /** "exited 3: <stderr tail>" or "did not end within 30s (killed)". */
    String describe(Duration timeout) {
      if (timedOut) {
        return "did not end within " + dev.firedrill.time.Durations.format(timeout) + " (killed)";
      }
      String tail = stderr.strip();
      if (tail.length() > STDERR_TAIL) {
        tail = "..." + tail.substring(tail.length() - STDERR_TAIL);
      }
      return "exited " + exit + (tail.isEmpty() ? "" : ": " + tail.replace('\n', ' '));
    }
  }

  private final Map<String, String> environment;

  CommandRunner(Map<String, String> environment) {
    this.environment = environment;
  }

  Result run(List<String> arguments, Map<String, String> extra, Duration timeout)
      throws FaultException {
    Path out = null;
    Path err = null;
    try {
      out = Files.createTempFile("firedrill-command-", ".out");
      err = Files.createTempFile("firedrill-command-", ".err");
      ProcessBuilder builder =
          new ProcessBuilder(arguments)
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
              .redirectOutput(out.toFile())
              .redirectError(err.toFile());
      builder.environment().clear();
      builder.environment().putAll(environment);
      builder.environment().putAll(extra);
      Process process = builder.start();
      boolean ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (!ended) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
      return new Result(ended ? process.exitValue() : -1, !ended, read(out), read(err));
    } catch (IOException e) {
      throw new FaultException(
          "command: cannot run " + arguments.get(0) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FaultException("command: interrupted while running " + arguments.get(0), e);
    } finally {
      delete(out);
      delete(err);
    }
  }

  private static String read(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return new String(in.readNBytes(MAX_OUTPUT), StandardCharsets.UTF_8);
    }
  }

  private static void delete(Path file) {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // A temp file left in /tmp is harmless; the command's outcome is what matters.
      }
    }
  }
}
