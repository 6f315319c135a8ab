package dev.firedrill.programme.lock;

import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.FaultSpec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
 * One lock per drill target, so two runs never drill the same target at once: a file per target in
 * a directory beside the SQLite history, locked with the operating system's advisory lock (held by
 * the process: a run killed with SIGKILL lets go of it), the holder's experiment id written inside.
 * Targets are the faults' {@link FaultSpec#target()} texts; an experiment takes all of its targets
 * or none.
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

  private final Path directory;

  public TargetLocks(Path directory) {
    this.directory = directory;
  }

  /** Beside a SQLite history file: {@code history.sqlite.locks/}. */
  public static TargetLocks besideHistory(Path historyFile) {
    return new TargetLocks(historyFile.resolveSibling(historyFile.getFileName() + ".locks"));
  }

  /** Tries every target of the experiment at once; never waits. */
  public Outcome tryLock(Experiment experiment) throws IOException {
    Files.createDirectories(directory);
    TreeSet<String> targets = new TreeSet<>(); // one order for every run, so two never deadlock
    for (FaultSpec fault : experiment.method().faults()) {
      targets.add(fault.target());
    }
    List<Lock> taken = new ArrayList<>();
    for (String target : targets) {
      Optional<Lock> lock = take(target, experiment.id());
      if (lock.isEmpty()) {
        taken.forEach(Lock::release);
        return new Refused(new Busy(target, holder(file(target))));
      }
      taken.add(lock.get());
    }
    return new Taken(() -> taken.forEach(Lock::release));
  }

  private Optional<Lock> take(String target, String experimentId) throws IOException {
    Path file = file(target);
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
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      return lines.isEmpty() || lines.get(0).isBlank() ? "(unknown)" : lines.get(0);
    } catch (IOException e) {
      return "(unknown: " + e.getMessage() + ")";
    }
  }

  private Path file(String target) {
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
