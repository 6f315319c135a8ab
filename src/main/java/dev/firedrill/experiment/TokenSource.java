package dev.firedrill.experiment;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where a secret comes from. The file names the place, never the secret, so that an experiment
 * file and its journal can be shared.
 */
public sealed interface TokenSource {

  static TokenSource none() {
    return None.INSTANCE;
  }

  /** The secret, or empty when none is configured. */
  Optional<String> resolve(Map<String, String> environment) throws IOException;

  /** How the source is described in messages and the journal: the place, never the value. */
  String describe();

  enum None implements TokenSource {
    INSTANCE;

    @Override
    public Optional<String> resolve(Map<String, String> environment) {
      return Optional.empty();
    }

    @Override
    public String describe() {
      return "none";
    }
  }

  record FromEnv(String variable) implements TokenSource {
    @Override
    public Optional<String> resolve(Map<String, String> environment) throws IOException {
      String value = environment.get(variable);
      if (value == null || value.isBlank()) {
        throw new IOException("environment variable " + variable + " is not set (expected a bearer token)");
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
    public Optional<String> resolve(Map<String, String> environment) throws IOException {
      try {
        String value = Files.readString(path, StandardCharsets.UTF_8).strip();
        if (value.isEmpty()) {
          throw new IOException(path + ": token file is empty (expected a bearer token)");
        }
        return Optional.of(value);
      } catch (java.nio.file.NoSuchFileException e) {
        throw new IOException(path + ": token file does not exist (expected a bearer token)");
      }
    }

    @Override
    public String describe() {
      return "file " + path;
    }
  }
}
