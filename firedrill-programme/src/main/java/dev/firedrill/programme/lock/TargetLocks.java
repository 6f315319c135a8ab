package dev.firedrill.programme.lock;

import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.history.AdvisoryLocks;
import dev.firedrill.history.HistoryException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * One lock per drill target, so two runs never drill the same target at once: with a SQLite history
 * a file per target in a directory beside it, locked with the operating system's advisory lock
 * (held by the process: a run killed with SIGKILL lets go of it), the holder's experiment id
 * written inside; with a PostgreSQL history its advisory locks ({@link AdvisoryLocks}). Targets are
 * the faults' {@link FaultSpec#target()} texts; an experiment takes all of its targets or none.
 */
public final class TargetLocks {

  /** The experiment's locks, released in {@link #close()}. */
  public interface Held extends AutoCloseable {
    @Override
    void close();
  }

  /** The target someone else holds, and the experiment id that holds it. */
  public record Busy(String target, String holder) {
    public String text() {
      return "target " + target + " is being drilled by experiment " + holder;
    }
  }

  /** The locks, or what stopped the experiment taking them. */
  public sealed interface Outcome permits Taken, Refused {}

  public record Taken(Held held) implements Outcome {}

  public record Refused(Busy busy) implements Outcome {}

  /** Where the locks live: files in a directory, or a PostgreSQL history's advisory locks. */
  private interface Backend {
    Optional<Runnable> take(String target, String experimentId) throws IOException;

    String holder(String target);
  }

  private final Backend backend;

  public TargetLocks(Path directory) {
    this.backend = new Files(directory);
  }

  private TargetLocks(Backend backend) {
    this.backend = backend;
  }

  /** Beside a SQLite history file: {@code history.sqlite.locks/}. */
  public static TargetLocks besideHistory(Path historyFile) {
    return new TargetLocks(historyFile.resolveSibling(historyFile.getFileName() + ".locks"));
  }

  /** In a PostgreSQL history: its advisory locks, on the session {@code locks} holds open. */
  public static TargetLocks inPostgres(AdvisoryLocks locks) {
    return new TargetLocks(
        new Backend() {
          @Override
          public Optional<Runnable> take(String target, String experimentId) throws IOException {
            try {
              if (!locks.tryLock(target, experimentId)) {
                return Optional.empty();
              }
            } catch (HistoryException e) {
              throw new IOException(e.getMessage(), e);
            }
            return Optional.of(
                () -> {
                  try {
                    locks.unlock(target);
                  } catch (HistoryException e) {
                    // the session keeps it until the connection closes; the next take says so
                  }
                });
          }

          @Override
          public String holder(String target) {
            try {
              return locks.holder(target).orElse("(unknown)");
            } catch (HistoryException e) {
              return "(unknown: " + e.getMessage() + ")";
            }
          }
        });
  }

  /** Tries every target of the experiment at once; never waits. */
  public Outcome tryLock(Experiment experiment) throws IOException {
    TreeSet<String> targets = new TreeSet<>(); // one order for every run, so two never deadlock
    for (FaultSpec fault : experiment.method().faults()) {
      targets.add(fault.target());
    }
    List<Runnable> taken = new ArrayList<>();
    for (String target : targets) {
      Optional<Runnable> lock = backend.take(target, experiment.id());
      if (lock.isEmpty()) {
        taken.forEach(Runnable::run);
        return new Refused(new Busy(target, backend.holder(target)));
      }
      taken.add(lock.get());
    }
    return new Taken(() -> taken.forEach(Runnable::run));
  }

  /** A file per target, locked with the operating system's advisory lock. */
  private static final class Files implements Backend {
    private final Path directory;

    Files(Path directory) {
      this.directory = directory;
    }

    @Override
    public Optional<Runnable> take(String target, String experimentId) throws IOException {
      java.nio.file.Files.createDirectories(directory);
      return lock(file(target), target, experimentId).map(l -> l::release);
    }

    @Override
    public String holder(String target) {
      return TargetLocks.holder(file(target));
    }

    private Path file(String target) {
      return TargetLocks.file(directory, target);
    }
  }

  private static Optional<Lock> lock(Path file, String target, String experimentId)
      throws IOException {
    FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null; // this process holds it already: another suite of the same JVM
    }
    if (lock == null) {
      channel.close();
      return Optional.empty();
    }
    channel.truncate(0);
    channel.write(
        ByteBuffer.wrap((experimentId + "\n" + target + "\n").getBytes(StandardCharsets.UTF_8)));
    channel.force(true);
    return Optional.of(new Lock(channel, lock));
  }

  private static String holder(Path file) {
    try {
      List<String> lines = java.nio.file.Files.readAllLines(file, StandardCharsets.UTF_8);
      return lines.isEmpty() || lines.get(0).isBlank() ? "(unknown)" : lines.get(0);
    } catch (IOException e) {
      return "(unknown: " + e.getMessage() + ")";
    }
  }

  private static Path file(Path directory, String target) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(target.getBytes(StandardCharsets.UTF_8));
      return directory.resolve(HexFormat.of().formatHex(digest, 0, 16) + ".lock");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  private record Lock(FileChannel channel, FileLock lock) {
    void release() {
      try {
        lock.release();
        channel.close();
      } catch (IOException e) {
        // closing the channel lets go of the lock whatever failed; nothing is left to undo
      }
    }
  }
}
