package dev.firedrill.testing;

import dev.firedrill.lab.stack.TempDirs;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A throwaway PostgreSQL server for tests: Debian's binaries ({@code /usr/lib/postgresql/N/bin},
 * the highest N, or the directory {@code FIREDRILL_PG_BIN} names), a fresh cluster in a temp dir
 * with trust authentication for the user {@code firedrill}, listening on 127.0.0.1 at a free port.
 * Skipped when PostgreSQL is missing, failed when {@code CI=true}.
 *
 * <p>PostgreSQL refuses to run as root, and tests in containers often are root: then initdb,
 * postgres and pg_ctl run as {@code nobody} (uid and gid 65534) through {@code setpriv}, which
 * execs the binary in place, so the process firedrill holds is postgres itself.
 */
public final class RealPostgres implements AutoCloseable {

  public static final String USER = "firedrill";
  private static final int NOBODY = 65534;
  private static final Duration READY = Duration.ofSeconds(30);
  private static final Duration POLL = Duration.ofMillis(100);
  private static final AtomicInteger SCHEMAS = new AtomicInteger();

  private final Path bin;
  private final List<String> asUser;
  private final Path dir;
  private final int port;
  private final Process server;

  private RealPostgres(Path bin, List<String> asUser, Path dir, int port, Process server) {
    this.bin = bin;
    this.asUser = asUser;
    this.dir = dir;
    this.port = port;
    this.server = server;
  }

  public static RealPostgres start(Clock clock) {
    Path bin = binDirectory();
    List<String> asUser =
        root()
            ? List.of(
                RequiredBinary.find("setpriv", "FIREDRILL_SETPRIV", "util-linux").toString(),
                "--reuid=" + NOBODY,
                "--regid=" + NOBODY,
                "--clear-groups",
                "--")
            : List.of();
    Path dir = TempDirs.create("firedrill-postgres-");
    try {
      if (!asUser.isEmpty()) {
        Files.setAttribute(dir, "unix:uid", NOBODY);
        Files.setAttribute(dir, "unix:gid", NOBODY);
      }
      run(
          asUser,
          dir,
          List.of(
              bin.resolve("initdb").toString(),
              "-D",
              dir.resolve("data").toString(),
              "-U",
              USER,
              "--auth=trust",
              "--no-sync",
              "--encoding=UTF8",
              "--no-locale"),
          dir.resolve("initdb.log"));
      int port = freePort();
      List<String> command = new ArrayList<>(asUser);
      command.addAll(
          List.of(
              bin.resolve("postgres").toString(),
              "-D",
              dir.resolve("data").toString(),
              "-k",
              dir.toString(),
              "-p",
              Integer.toString(port),
              "-c",
              "listen_addresses=127.0.0.1",
              // A test cluster: durability costs time and buys nothing.
              "-c",
              "fsync=off",
              "-c",
              "synchronous_commit=off",
              "-c",
              "full_page_writes=off"));
      Process server =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("postgres.log").toFile())
              .start();
      RealPostgres postgres = new RealPostgres(bin, asUser, dir, port, server);
      try {
        postgres.awaitReady(clock);
      } catch (RuntimeException | Error e) {
        postgres.close();
        throw e;
      }
      return postgres;
    } catch (IOException e) {
      TempDirs.delete(dir);
      return Assertions.fail("cannot start PostgreSQL: " + e.getMessage());
    } catch (RuntimeException | Error e) {
      TempDirs.delete(dir);
      throw e;
    }
  }

  /** The server's {@code postgres} database. */
  public String url() {
    return url("postgres");
  }

  /**
   * A URL whose tables go to a new, empty schema (through {@code currentSchema}), so each test
   * starts from nothing; a schema costs milliseconds where a database costs a copy of its template.
   */
  public String newSchema() {
    String name = "test_" + SCHEMAS.incrementAndGet();
    try (Connection connection = connect(url());
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE SCHEMA " + name);
    } catch (SQLException e) {
      return Assertions.fail("cannot create schema " + name + ": " + e.getMessage());
    }
    return url() + "?currentSchema=" + name;
  }

  /**
   * A role that must log in with {@code password} (SCRAM over TCP, where {@link #USER} is trusted),
   * and a URL to a new schema it owns: for a test that the password a client sends is one it never
   * shows.
   */
  public String newSchemaForPasswordRole(String role, String password) {
    if (!role.matches("[a-z][a-z0-9_]*") || password.contains("'")) {
      throw new IllegalArgumentException(
          "role " + role + ": expected a lower-case SQL name and a password without quotes");
    }
    Path hba = dir.resolve("data").resolve("pg_hba.conf");
    try {
      // The first matching line wins: this one must come before initdb's trust lines.
      Files.writeString(
          hba, "host all " + role + " 127.0.0.1/32 scram-sha-256\n" + Files.readString(hba));
    } catch (IOException e) {
      return Assertions.fail("cannot write " + hba + ": " + e.getMessage());
    }
    String schema = "test_" + SCHEMAS.incrementAndGet();
    try (Connection connection = connect(url());
        Statement statement = connection.createStatement()) {
      statement.execute("SET password_encryption = 'scram-sha-256'");
      statement.execute("CREATE ROLE " + role + " LOGIN PASSWORD '" + password + "'");
      statement.execute("CREATE SCHEMA " + schema + " AUTHORIZATION " + role);
      statement.execute("SELECT pg_reload_conf()");
    } catch (SQLException e) {
      return Assertions.fail("cannot create role " + role + ": " + e.getMessage());
    }
    return url() + "?currentSchema=" + schema;
  }

  /**
   * Every row of every table in {@code schema}, one line a row, read as {@link #USER}: what a
   * client stored, for a scan.
   */
  public String dump(String schema) {
    StringBuilder text = new StringBuilder();
    try (Connection connection = connect(url());
        Statement statement = connection.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet names =
          connection.getMetaData().getTables(null, schema, "%", new String[] {"TABLE"})) {
        while (names.next()) {
          tables.add(names.getString("TABLE_NAME"));
        }
      }
      for (String table : tables) {
        try (ResultSet rows =
            statement.executeQuery("SELECT * FROM \"" + schema + "\".\"" + table + "\"")) {
          int columns = rows.getMetaData().getColumnCount();
          while (rows.next()) {
            text.append(table);
            for (int i = 1; i <= columns; i++) {
              text.append('\t').append(rows.getString(i));
            }
            text.append('\n');
          }
        }
      }
    } catch (SQLException e) {
      return Assertions.fail("cannot dump schema " + schema + ": " + e.getMessage());
    }
    return text.toString();
  }

  /** Stops the server with pg_ctl's fast shutdown (bounded), then kills it if it is still there. */
  @Override
  public void close() {
    try {
      List<String> stop = new ArrayList<>(asUser);
      stop.addAll(
          List.of(
              bin.resolve("pg_ctl").toString(),
              "stop",
              "-D",
              dir.resolve("data").toString(),
              "-m",
              "fast",
              "-w",
              "-t",
              "10"));
      Process pgCtl =
          new ProcessBuilder(stop)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("pg_ctl.log").toFile())
              .start();
      if (!pgCtl.waitFor(15, TimeUnit.SECONDS)) {
        pgCtl.destroyForcibly();
      }
      if (!server.waitFor(5, TimeUnit.SECONDS)) {
        server.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (IOException e) {
      server.destroyForcibly();
    } catch (InterruptedException e) {
      server.destroyForcibly();
      Thread.currentThread().interrupt();
    } finally {
      TempDirs.delete(dir);
    }
  }

  private String url(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }

  private void awaitReady(Clock clock) {
    long deadline = clock.nanoTime() + READY.toNanos();
    String last = "no answer yet";
    while (true) {
      if (!server.isAlive()) {
        Assertions.fail(
            "PostgreSQL exited with "
                + server.exitValue()
                + " before it was ready: "
                + log("postgres.log"));
      }
      try (Connection ignored = connect(url())) {
        return;
      } catch (SQLException e) {
        last = e.getMessage();
      }
      if (clock.nanoTime() - deadline > 0) {
        Assertions.fail(
            "PostgreSQL on port "
                + port
                + " was not ready within "
                + READY.toSeconds()
                + "s; last: "
                + last
                + "; log: "
                + log("postgres.log"));
      }
      try {
        clock.sleep(POLL);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        Assertions.fail("interrupted while waiting for PostgreSQL");
      }
    }
  }

  private static Connection connect(String url) throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("user", USER);
    properties.setProperty("connectTimeout", "2");
    return DriverManager.getConnection(url, properties);
  }

  private String log(String name) {
    try {
      List<String> lines = Files.readAllLines(dir.resolve(name));
      return String.join(" | ", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
    } catch (IOException e) {
      return "(no " + name + ")";
    }
  }

  private static void run(List<String> asUser, Path dir, List<String> args, Path log)
      throws IOException {
    List<String> command = new ArrayList<>(asUser);
    command.addAll(args);
    Process process =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        Assertions.fail(args.get(0) + " did not finish within 60s");
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      Assertions.fail("interrupted while running " + args.get(0));
    }
    if (process.exitValue() != 0) {
      Assertions.fail(
          args.get(0)
              + " exited with "
              + process.exitValue()
              + ": "
              + Files.readString(log).strip());
    }
  }

  private static Path binDirectory() {
    String configured = System.getenv("FIREDRILL_PG_BIN");
    if (configured != null && !configured.isBlank()) {
      return RequiredBinary.require(
              Optional.of(Path.of(configured, "postgres")),
              "postgres",
              "FIREDRILL_PG_BIN",
              "postgresql")
          .getParent();
    }
    Optional<Path> found;
    try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
      found =
          versions
              .map(v -> v.resolve("bin"))
              .filter(
                  b ->
                      Files.isExecutable(b.resolve("postgres"))
                          && Files.isExecutable(b.resolve("initdb"))
                          && Files.isExecutable(b.resolve("pg_ctl")))
              .max(Comparator.comparing(RealPostgres::version))
              .map(b -> b.resolve("postgres"));
    } catch (IOException e) {
      found = Optional.empty();
    }
    return RequiredBinary.require(found, "postgres", "FIREDRILL_PG_BIN", "postgresql").getParent();
  }

  /** Compared as numbers, since as text "9.6" sorts after "15". */
  private static int version(Path binDirectory) {
    String name = binDirectory.getParent().getFileName().toString();
    try {
      return Integer.parseInt(name.replaceAll("\\..*", ""));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static boolean root() {
    try {
      return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /**
   * One server for a test class: {@code @RegisterExtension static final RealPostgres.PerClass
   * postgres = new RealPostgres.PerClass();} starts it before the class and stops it after.
   */
  public static final class PerClass implements BeforeAllCallback, AfterAllCallback {

    private RealPostgres server;

    @Override
    public void beforeAll(ExtensionContext context) {
      server = RealPostgres.start(Clock.system());
    }

    @Override
    public void afterAll(ExtensionContext context) {
      if (server != null) {
        server.close();
      }
    }

    public String url() {
      return server.url();
    }

    public String newSchema() {
      return server.newSchema();
    }

    public String newSchemaForPasswordRole(String role, String password) {
      return server.newSchemaForPasswordRole(role, password);
    }

    public String dump(String schema) {
      return server.dump(schema);
    }
  }
}
