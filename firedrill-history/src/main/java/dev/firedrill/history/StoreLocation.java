package dev.firedrill.history;

import dev.firedrill.net.UrlCredentials;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Where the detection history lives: a SQLite file, or a PostgreSQL database named by its JDBC URL.
 * PostgreSQL's credentials come from the environment only, so they never reach a command line, a
 * journal or a message; {@link #name()} is the URL without its query, which may hold a password.
 */
public final class StoreLocation {

  public static final String ENV = "FIREDRILL_HISTORY";
  public static final String USER_ENV = "FIREDRILL_HISTORY_USER";
  public static final String PASSWORD_FILE_ENV = "FIREDRILL_HISTORY_PASSWORD_FILE";
  public static final String DEFAULT_FILE = "history.sqlite";

  private static final String SQLITE = "jdbc:sqlite:";
  private static final String POSTGRES = "jdbc:postgresql:";

  private final String url;
  private final Optional<Path> file;
  private final Map<String, String> env;

  private StoreLocation(String url, Optional<Path> file, Map<String, String> env) {
    this.url = url;
    this.file = file;
    this.env = Map.copyOf(env);
  }

  /**
   * The option's value, else {@code FIREDRILL_HISTORY}, else {@code history.sqlite} in {@code
   * defaultDirectory}. A value that is not a JDBC URL is a SQLite file's path.
   */
  public static StoreLocation resolve(
      Optional<String> option, Path defaultDirectory, Map<String, String> env)
      throws HistoryException {
    Optional<String> given =
        option.or(() -> Optional.ofNullable(env.get(ENV)).filter(v -> !v.isBlank()));
    String where = option.isPresent() ? "--history" : ENV;
    if (given.isEmpty()) {
      return sqlite(defaultDirectory.resolve(DEFAULT_FILE), env);
    }
    String value = given.get().strip();
    if (value.startsWith(POSTGRES)) {
      if (UrlCredentials.present(value)) {
        // The URL reaches messages and the console: the password must not be in it.
        throw new HistoryException(
            where
                + ": credentials in the URL are refused (the value is not shown); expected the user"
                + " in FIREDRILL_HISTORY_USER or PGUSER and the password in the file"
                + " FIREDRILL_HISTORY_PASSWORD_FILE names or in PGPASSWORD");
      }
      return new StoreLocation(value, Optional.empty(), env);
    }
    if (value.startsWith(SQLITE)) {
      String path = value.substring(SQLITE.length());
      if (path.isEmpty() || path.startsWith(":memory:") || path.startsWith("file:")) {
        throw new HistoryException(
            where + " " + value + ": expected jdbc:sqlite:FILE with a plain file path");
      }
      return sqlite(path(path, where), env);
    }
    if (value.startsWith("jdbc:")) {
      throw new HistoryException(
          where
              + " "
              + strip(value)
              + ": unsupported database (expected jdbc:sqlite:FILE, jdbc:postgresql://HOST[:PORT]/DB or a file path)");
    }
    return sqlite(path(value, where), env);
  }

  private static StoreLocation sqlite(Path file, Map<String, String> env) {
    Path absolute = file.toAbsolutePath().normalize();
    return new StoreLocation(SQLITE + absolute, Optional.of(absolute), env);
  }

  private static Path path(String text, String where) throws HistoryException {
    try {
      return Path.of(text);
    } catch (InvalidPathException e) {
      throw new HistoryException(where + " " + text + ": not a file path (" + e.getReason() + ")");
    }
  }

  public String url() {
    return url;
  }

  /** The SQLite file, when the store is one. */
  public Optional<Path> file() {
    return file;
  }

  /** How messages name the store: the file, or the URL without its query. */
  public String name() {
    return file.map(Path::toString).orElseGet(() -> strip(url));
  }

  /**
   * The connection properties: for PostgreSQL, the user ({@code FIREDRILL_HISTORY_USER}, else
   * {@code PGUSER}) and password (the file {@code FIREDRILL_HISTORY_PASSWORD_FILE} names, else
   * {@code PGPASSWORD}), and timeouts so a dead server costs seconds, not the drill's exit.
   */
  Properties properties() throws HistoryException {
    Properties properties = new Properties();
    if (file.isPresent()) {
      return properties;
    }
    properties.setProperty("connectTimeout", "5");
    properties.setProperty("loginTimeout", "10");
    properties.setProperty("socketTimeout", "30");
    Optional.ofNullable(env.get(USER_ENV))
        .or(() -> Optional.ofNullable(env.get("PGUSER")))
        .filter(u -> !u.isBlank())
        .ifPresent(user -> properties.setProperty("user", user));
    Optional<String> password = password();
    password.ifPresent(p -> properties.setProperty("password", p));
    return properties;
  }

  /**
   * To keep a driver's message from ever carrying the password, whatever the driver decides to
   * echo.
   */
  String redact(String message) {
    String text = message == null ? "" : message;
    try {
      Optional<String> password = file.isPresent() ? Optional.empty() : password();
      return password
          .filter(p -> !p.isEmpty())
          .map(p -> text.replace(p, "***"))
          .orElse(text)
          .replace(url, name());
    } catch (HistoryException e) {
      return text.replace(url, name());
    }
  }

  private Optional<String> password() throws HistoryException {
    String passwordFile = env.get(PASSWORD_FILE_ENV);
    if (passwordFile != null && !passwordFile.isBlank()) {
      try {
        return Optional.of(Files.readString(Path.of(passwordFile)).strip());
      } catch (IOException | InvalidPathException e) {
        throw new HistoryException(
            PASSWORD_FILE_ENV
                + " names "
                + passwordFile
                + ", which cannot be read (expected a file holding the password)");
      }
    }
    return Optional.ofNullable(env.get("PGPASSWORD")).filter(p -> !p.isEmpty());
  }

  private static String strip(String url) {
    int query = url.indexOf('?');
    return query < 0 ? url : url.substring(0, query);
  }
}
