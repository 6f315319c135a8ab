package dev.firedrill.network;

import dev.firedrill.fault.FaultException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Runs ip, nft and tc as argument lists (never a shell), each bounded by a timeout. Debian keeps
 * them in /usr/sbin, which a user's PATH may lack: the children's PATH gets /usr/sbin and /sbin
 * appended, so {@code ip netns exec} finds nft and tc too.
 */
public final class Commands {

  /** What a command said: its exit code and its output, both streams trimmed. */
  public record Result(int exit, String out, String err) {
    public boolean ok() {
      return exit == 0;
    }

    /** The first line of stderr (else stdout), for a message. */
    public String firstLine() {
      String text = err.isBlank() ? out : err;
      return text.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse("");
    }
  }

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private Commands() {}

  /** Runs {@code argv}; a command that cannot start or outlives the timeout is a FaultException. */
  public static Result run(List<String> argv) throws FaultException {
    ProcessBuilder builder = new ProcessBuilder(argv);
    String path = builder.environment().getOrDefault("PATH", "/usr/bin:/bin");
    builder.environment().put("PATH", path + ":/usr/sbin:/sbin");
    builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new FaultException("cannot run " + shell(argv) + ": " + e.getMessage());
    }
    CompletableFuture<String> out = drain(process.getInputStream());
    CompletableFuture<String> err = drain(process.getErrorStream());
    try {
      if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new FaultException(
            shell(argv) + " did not finish within " + TIMEOUT.toSeconds() + "s; it was killed");
      }
      return new Result(process.exitValue(), out.join().strip(), err.join().strip());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new FaultException("interrupted while running " + shell(argv));
    }
  }

  /** Runs {@code argv} and fails, naming it and its error, unless it exits 0. */
  public static String require(List<String> argv) throws FaultException {
    Result result = run(argv);
    if (!result.ok()) {
      throw new FaultException(
          shell(argv) + " failed (exit " + result.exit() + "): " + result.firstLine());
    }
    return result.out();
  }

  private static CompletableFuture<String> drain(InputStream stream) {
    return CompletableFuture.supplyAsync(
        () -> {
          try (stream) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            stream.transferTo(bytes);
            return bytes.toString(StandardCharsets.UTF_8);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  /** An argument list as a shell line, quoting what the shell would split, for plans and humans. */
  public static String shell(List<String> argv) {
    return argv.stream()
        .map(a -> a.matches("[A-Za-z0-9_./=:,@%+-]+") ? a : "'" + a.replace("'", "'\\''") + "'")
        .collect(Collectors.joining(" "));
  }
}
