package dev.firedrill.testing;

import dev.firedrill.lab.stack.Binaries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/** A binary a test needs: skipped when missing, failed when missing in CI ({@code CI=true}). */
public final class RequiredBinary {

  private RequiredBinary() {}

  public static Path find(String name, String environmentVariable, String debianPackage) {
    return require(
        Binaries.find(environmentVariable, name), name, environmentVariable, debianPackage);
  }

  /** As {@link #find}, for a binary the caller looked up its own way (one outside the PATH). */
  public static Path require(
      Optional<Path> found, String name, String environmentVariable, String debianPackage) {
    return require(
        found,
        name,
        environmentVariable,
        () -> Binaries.missing(name, environmentVariable, debianPackage));
  }

  /** As above, with the caller's own line on how to get the binary. */
  public static Path require(
      Optional<Path> found, String name, String environmentVariable, Supplier<String> howToGet) {
    if (found.isPresent()) {
      if (!Files.isExecutable(found.get())) {
        Assertions.fail(
            found.get()
                + " is not an executable file (expected the "
                + name
                + " binary; check "
                + environmentVariable
                + ")");
      }
      return found.get();
    }
    String why = howToGet.get();
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      Assertions.fail(why + " (CI=true, so this fails instead of skipping)");
    }
    System.err.println("SKIPPED: " + why);
    Assumptions.abort(why);
    throw new AssertionError("unreachable");
  }
}
