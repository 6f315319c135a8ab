package dev.firedrill.testing;

import static org.assertj.core.api.Assertions.fail;

import dev.firedrill.cli.Main;
import dev.firedrill.fault.WorkerLauncher;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * firedrill from this build's classes in a JVM of its own, for a test whose drill needs an
 * environment of its own (a password in an environment variable): the in-process CLI sees only the
 * test JVM's environment.
 */
public final class FiredrillChild {

  private FiredrillChild() {}

  /** Runs {@code firedrill ARGS} in {@code dir} with {@code env} added, failing the test after {@code limit}. */
  public static FiredrillJar.Run run(Path dir, Map<String, String> env, Duration limit, String... args)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile(dir, "firedrill-", ".out");
    ProcessBuilder builder = new ProcessBuilder(WorkerLauncher.current().command(
        List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"), Main.class, List.of(args)))
        .directory(dir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true)
        .redirectOutput(out.toFile());
    builder.environment().putAll(env);
    Process process = builder.start();
    if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
      fail("firedrill " + String.join(" ", args) + " did not finish within " + limit.toSeconds() + "s; output: "
          + Files.readString(out));
    }
    String output = Files.readString(out);
    Files.delete(out);
    return new FiredrillJar.Run(process.exitValue(), output);
  }
}
