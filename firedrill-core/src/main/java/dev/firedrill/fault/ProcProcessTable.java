package dev.firedrill.fault;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@link ProcessTable} over a Linux {@code /proc}; the root is a parameter so tests can feed odd
 * stat lines.
 */
public final class ProcProcessTable implements ProcessTable {

  private static final long KILL_COMMAND_SECONDS = 10;

  private final Path root;

  public ProcProcessTable(Path root) {
    this.root = root;
  }

  @Override
  public List<ProcessInfo> list() {
    List<ProcessInfo> processes = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(root, "[0-9]*")) {
      for (Path entry : entries) {
        parsePid(entry.getFileName().toString()).flatMap(this::find).ifPresent(processes::add);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + root + ": " + e.getMessage(), e);
    }
    processes.sort(Comparator.comparingLong(ProcessInfo::pid));
    return processes;
  }

  @Override
  public Optional<ProcessInfo> find(long pid) {
    Path dir = root.resolve(Long.toString(pid));
    try {
      String stat = Files.readString(dir.resolve("stat"), StandardCharsets.UTF_8);
      byte[] cmdline = Files.readAllBytes(dir.resolve("cmdline"));
      return Optional.of(parse(pid, stat, cmdline));
    } catch (IOException | RuntimeException e) {
      // The process exited between listing and reading, or its entry is not ours to read.
      return Optional.empty();
    }
  }

  /**
   * Parses after the last ')' because the command name in field 2 may itself hold spaces and
   * parens.
   */
  static ProcessInfo parse(long pid, String stat, byte[] cmdline) {
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      throw new IllegalArgumentException(
          "stat of PID " + pid + ": expected \"(comm)\", got " + stat);
    }
    String[] fields = stat.substring(close + 1).trim().split("\\s+");
    // fields[0] is field 3 (state), so field N sits at index N - 3.
    char state = fields[0].charAt(0);
    long ppid = Long.parseLong(fields[4 - 3]);
    long start = Long.parseLong(fields[22 - 3]);
    return new ProcessInfo(pid, ppid, start, state, splitArgs(cmdline));
  }

  static List<String> splitArgs(byte[] cmdline) {
    List<String> args = new ArrayList<>();
    int from = 0;
    for (int i = 0; i < cmdline.length; i++) {
      if (cmdline[i] == 0) {
        args.add(new String(cmdline, from, i - from, StandardCharsets.UTF_8));
        from = i + 1;
      }
    }
    if (from < cmdline.length) {
      // A process that rewrote its argv may drop the final NUL.
      args.add(new String(cmdline, from, cmdline.length - from, StandardCharsets.UTF_8));
    }
    return args;
  }

  private static Optional<Long> parsePid(String name) {
    try {
      return Optional.of(Long.parseLong(name));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  @Override
  public boolean signal(ProcessId id, Signal signal) throws FaultException {
    if (!alive(id)) {
      return false;
    }
    if (id.pid() == ProcessHandle.current().pid()) {
      throw new FaultException(
          "refusing to send "
              + signal.sigName()
              + " to PID "
              + id.pid()
              + ": that is firedrill itself");
    }
    return switch (signal) {
      case TERM, KILL -> viaHandle(id, signal);
      default -> viaKillCommand(id, signal);
    };
  }

  private boolean viaHandle(ProcessId id, Signal signal) throws FaultException {
    Optional<ProcessHandle> handle = ProcessHandle.of(id.pid());
    if (handle.isEmpty()) {
      return false;
    }
    boolean requested =
        signal == Signal.KILL ? handle.get().destroyForcibly() : handle.get().destroy();
    if (!requested && alive(id)) {
      throw new FaultException(
          "cannot send "
              + signal.sigName()
              + " to PID "
              + id.pid()
              + ": the kernel refused (is it another user's process?)");
    }
    return requested;
  }

  private boolean viaKillCommand(ProcessId id, Signal signal) throws FaultException {
    List<String> command = List.of("kill", "-s", signal.name(), Long.toString(id.pid()));
    try {
      Process kill =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
              .start();
      String output;
      try (InputStream out = kill.getInputStream()) {
        output = new String(out.readNBytes(4096), StandardCharsets.UTF_8).strip();
      }
      if (!kill.waitFor(KILL_COMMAND_SECONDS, TimeUnit.SECONDS)) {
        kill.destroyForcibly();
        throw new FaultException(
            String.join(" ", command) + ": did not finish within " + KILL_COMMAND_SECONDS + "s");
      }
      if (kill.exitValue() == 0) {
        return true;
      }
      if (!alive(id)) {
        return false;
      }
      throw new FaultException(
          String.join(" ", command)
              + ": exit "
              + kill.exitValue()
              + ": "
              + output.replace('\n', ' '));
    } catch (IOException e) {
      throw new FaultException(String.join(" ", command) + ": cannot run: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FaultException(String.join(" ", command) + ": interrupted", e);
    }
  }
}
