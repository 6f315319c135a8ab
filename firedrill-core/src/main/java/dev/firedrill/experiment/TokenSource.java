package dev.firedrill.experiment;

import dev.firedrill.http.Secret;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where a secret comes from. The file names the place, never the secret, so that an experiment file
 * and its journal can be shared. A file is read on every {@link #resolve}, so a rotated secret is
 * picked up.
 */
public sealed interface TokenSource extends Secret {

  static TokenSource none() {
    return None.INSTANCE;
  }

  /** The bearer token, or empty when none is configured. */
  default Optional<String> resolve(Map<String, String> environment) throws IOException {
    return resolve(environment, "a bearer token");
  }

  /** The place as an optional {@link Secret}: empty for none. */
  default Optional<Secret> secret() {
    return this == None.INSTANCE ? Optional.empty() : Optional.of(this);
  }

  enum None implements TokenSource {
    INSTANCE;

    @Override
    public Optional<String> resolve(Map<String, String> environment, String what) {
      return Optional.empty();
    }

    @Override
    public String describe() {
      return "none";
    }
  }

  record FromEnv(String variable) implements TokenSource {
    @Override
    public Optional<String> resolve(Map<String, String> environment, String what)
        throws IOException {
      String value = environment.get(variable);
      if (value == null || value.isBlank()) {
        throw new IOException(
            "environment variable " + variable + " is not set (expected " + what + ")");
      }
      return Optional.of(value.strip());
    }

    @Override
    public String describe() {
      return "env " + variable;
    }
  }

  record FromFile(Path path) implements TokenSource {
    @Override
    public Optional<String> resolve(Map<String, String> environment, String what)
        throws IOException {
      String noun = what.endsWith("password") ? "password" : "token";
      try {
        String value = Files.readString(path, StandardCharsets.UTF_8).strip();
        if (value.isEmpty()) {
          throw new IOException(path + ": " + noun + " file is empty (expected " + what + ")");
        }
        return Optional.of(value);
      } catch (java.nio.file.NoSuchFileException e) {
        throw new IOException(path + ": " + noun + " file does not exist (expected " + what + ")");
      }
    }

    @Override
    public String describe() {
      return "file " + path;
    }
  }
}
