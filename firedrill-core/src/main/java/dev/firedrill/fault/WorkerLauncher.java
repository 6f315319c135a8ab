package dev.firedrill.fault;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** How to start a helper JVM (cpu-burn worker, watchdog) from the same installation and classes. */
public record WorkerLauncher(String javaExecutable, String classpath) {

  public static WorkerLauncher current() {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    return new WorkerLauncher(java, System.getProperty("java.class.path"));
  }

  public List<String> command(List<String> jvmOptions, Class<?> mainClass, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(javaExecutable);
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classpath);
    command.add(mainClass.getName());
    command.addAll(args);
    return command;
  }

  /**
   * A builder with no terminal attached: a helper that outlives firedrill must not hold its pipes,
   * and a full pipe would block it.
   */
  public static ProcessBuilder detached(List<String> command) {
    return new ProcessBuilder(command)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD);
  }
}
