package dev.firedrill.lab.stack;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Finds the stack's binaries: an environment variable naming the path, else the PATH. */
public final class Binaries {

  private Binaries() {}

  public static Optional<Path> find(String environmentVariable, String... names) {
    return find(System.getenv(), environmentVariable, names);
  }

  /** As {@link #find(String, String...)} in the environment {@code env}. */
  public static Optional<Path> find(
      Map<String, String> env, String environmentVariable, String... names) {
    String configured = env.get(environmentVariable);
    if (configured != null && !configured.isBlank()) {
      return Optional.of(Path.of(configured));
    }
    String pathVar = env.getOrDefault("PATH", "");
    for (String name : names) {
      for (String entry : pathVar.split(File.pathSeparator)) {
        if (!entry.isEmpty() && Files.isExecutable(Path.of(entry, name))) {
          return Optional.of(Path.of(entry, name));
        }
      }
    }
    return Optional.empty();
  }

  /** How a user gets a missing binary, in one line. */
  public static String missing(String what, String environmentVariable, String debianPackage) {
    return "the "
        + what
        + " binary is not on the PATH; install it with bin/install-deps (or apt-get install "
        + debianPackage
        + "), or set "
        + environmentVariable
        + " to its path";
  }
}
