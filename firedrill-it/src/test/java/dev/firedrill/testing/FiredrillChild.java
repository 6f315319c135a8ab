package dev.firedrill.testing;

import dev.firedrill.cli.Main;
import dev.firedrill.fault.WorkerLauncher;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * firedrill from this build's classes in a JVM of its own, for a test whose drill needs an
 * environment of its own (a password in an environment variable): the in-process CLI sees only the
 * test JVM's environment.
 */
public final class FiredrillChild {

  private FiredrillChild() {}

  /**
   * Runs {@code firedrill ARGS} in {@code dir} with {@code env} added, failing the test after
   * {@code limit}.
   */
  public static FiredrillJar.Run run(
      Path dir, Map<String, String> env, Duration limit, String... args)
      throws IOException, InterruptedException {
    return FiredrillJar.runToEnd(
        WorkerLauncher.current()
            .command(
                List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
                Main.class,
                List.of(args)),
        dir,
        env,
        limit,
        args);
  }
}
