package dev.firedrill.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * Reads {@code /proc/PID/stat} on its own (not through firedrill's process table), so tests check
 * firedrill's view of processes against the kernel's; plus decoys and bounded waits.
 */
public final class Procs {

  /** One row of /proc/PID/stat: state (field 3) and start time in clock ticks (field 22). */
  public record Stat(long pid, char state, long startTicks) {}

  private Procs() {}

  public static Optional<Stat> stat(long pid) {
    String text;
    try {
      text = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    } catch (IOException e) {
      return Optional.empty();
    }
    // The command (field 2) is in parentheses and may hold spaces and parentheses: split after the
    // last ')'.
    String rest = text.substring(text.lastIndexOf(')') + 2);
    String[] fields = rest.trim().split(" ");
    // fields[0] is field 3 (state); field 22 is fields[19].
    return Optional.of(new Stat(pid, fields[0].charAt(0), Long.parseLong(fields[19])));
  }

  /** The process runs (not a zombie) under the same start time. */
  public static boolean alive(long pid, long startTicks) {
    return stat(pid)
        .filter(s -> s.startTicks() == startTicks && s.state() != 'Z' && s.state() != 'X')
        .isPresent();
  }

  /** The state letter of the process with this start time, or '-' when it is gone. */
  public static char state(long pid, long startTicks) {
    return stat(pid).filter(s -> s.startTicks() == startTicks).map(Stat::state).orElse('-');
  }

  /** SIGKILL to the process if it still runs under the same start time. */
  public static void kill(long pid, long startTicks) {
    if (alive(pid, startTicks)) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  /**
   * A token such as {@code 3600.123456789}: {@code sleep} accepts it, and no other process has it.
   */
  public static String uniqueSleepToken() {
    return "3600." + (100_000_000 + ThreadLocalRandom.current().nextInt(900_000_000));
  }

  /**
   * Starts {@code sleep TOKEN} through {@code setsid -f}, so it is not a descendant of this JVM
   * (process-kill spares firedrill's own tree), and returns it once /proc shows it.
   */
  public static Stat startDecoy(String token) throws IOException, InterruptedException {
    Process setsid =
        new ProcessBuilder("setsid", "-f", "sleep", token)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    setsid.waitFor();
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (System.nanoTime() - deadline < 0) {
      Optional<Stat> found = findByArgs(List.of("sleep", token));
      if (found.isPresent()) {
        return found.get();
      }
      Thread.sleep(50);
    }
    throw new AssertionError("decoy \"sleep " + token + "\" did not appear within 5s");
  }

  private static Optional<Stat> findByArgs(List<String> args) throws IOException {
    try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
      return entries
          .filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
          .filter(p -> args.equals(cmdline(p)))
          .map(p -> stat(Long.parseLong(p.getFileName().toString())))
          .flatMap(Optional::stream)
          .findFirst();
    }
  }

  private static List<String> cmdline(Path proc) {
    try {
      String raw = Files.readString(proc.resolve("cmdline"));
      if (raw.isEmpty()) {
        return List.of();
      }
      return List.of(
          (raw.endsWith("\0") ? raw.substring(0, raw.length() - 1) : raw).split("\0", -1));
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }

  /**
   * Polls every 50 ms until {@code condition} holds or {@code limit} passes; returns whether it
   * held.
   */
  public static boolean waitFor(Duration limit, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() - deadline < 0) {
      if (condition.getAsBoolean()) {
        return true;
      }
      Thread.sleep(50);
    }
    return condition.getAsBoolean();
  }

  /** The java binary of this JVM, to start firedrill as a child. */
  public static String java() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }
}
