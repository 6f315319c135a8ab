package dev.firedrill.kubernetes.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The installed kubectl, run with a command firedrill prints for humans (an argument list starting
 * with {@code kubectl}) against a {@link TestCluster} through its kubeconfig; bounded in time.
 */
public final class Kubectl {

  public static final Path KUBECTL = Path.of("/usr/bin/kubectl");

  /** What kubectl answered: its exit code, and stdout and stderr together. */
  public record Run(int exit, String output) {}

  private Kubectl() {}

  public static Run run(List<String> argv, Path kubeconfig)
      throws IOException, InterruptedException {
    assertThat(KUBECTL).as("kubectl is installed").isExecutable();
    List<String> command = new ArrayList<>(argv);
    command.set(0, KUBECTL.toString());
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("KUBECONFIG", kubeconfig.toString());
    builder.environment().put("HOME", kubeconfig.getParent().toString());
    Process process = builder.start();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("kubectl did not finish within 30s: " + argv);
    }
    return new Run(
        process.exitValue(),
        new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
  }
}
