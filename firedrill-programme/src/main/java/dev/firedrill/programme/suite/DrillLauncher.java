package dev.firedrill.programme.suite;

import dev.firedrill.engine.DrillResult;
import java.nio.file.Path;

/**
 * Runs one drill of a suite exactly as {@code firedrill run} would (the caller owns that path: its
 * ports, markers, receiver, journal, report beside it, history row) and says how it ended.
 */
@FunctionalInterface
public interface DrillLauncher {

  Launched launch(Suite.Entry entry, int index, int total) throws InterruptedException;

  /**
   * How the drill ended, where its journal is, and the exit code {@code firedrill run} would have
   * returned for it.
   */
  record Launched(DrillResult result, Path journal, int exitCode) {}
}
