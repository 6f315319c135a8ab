package dev.firedrill.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The packaged firedrill jar as a child process, the way users run it (failsafe sets {@code FIREDRILL_JAR}). */
public final class FiredrillJar {

  /** How a finished run ended: its exit code and everything it printed. */
  public record Run(int exit, String output) {}

  private FiredrillJar() {}

  public static List<String> command(String... args) {
    String jar = System.getenv("FIREDRILL_JAR");
    assertThat(jar).as("FIREDRILL_JAR (set by failsafe to the shaded jar)").isNotBlank();
    assertThat(Path.of(jar)).as("FIREDRILL_JAR").isRegularFile();
    List<String> command = new ArrayList<>(List.of(Procs.java(), "-jar", jar));
    command.addAll(List.of(args));
    return command;
  }

  /** Starts firedrill in {@code dir}, its stdout and stderr in the given files. */
  public static Process start(Path dir, Path out, Path err, String... args) throws IOException {
    return new ProcessBuilder(command(args))
        .directory(dir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(out.toFile())
        .redirectError(err.toFile())
        .start();
  }

  /** Runs firedrill in {@code dir} to its end, failing the test when it takes longer than {@code limit}. */
  public static Run run(Path dir, Duration limit, String... args) throws IOException, InterruptedException {
    Path out = Files.createTempFile("firedrill-", ".out");
    Process process = new ProcessBuilder(command(args))
        .directory(dir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true)
        .redirectOutput(out.toFile())
        .start();
    if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
      fail("firedrill " + String.join(" ", args) + " did not finish within " + limit.toSeconds() + "s; output: "
          + Files.readString(out));
    }
    String output = Files.readString(out);
    Files.deleteIfExists(out);
    return new Run(process.exitValue(), output);
  }
}
