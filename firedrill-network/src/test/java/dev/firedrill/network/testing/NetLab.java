package dev.firedrill.network.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultException;
import dev.firedrill.testing.Procs;
import dev.firedrill.testing.RequiredBinary;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Two network namespaces of the test's own, {@code client} and {@code server}, joined by a veth
 * pair in a private /30, with a {@link SinkServer} listening in {@code server}; {@link #probe} runs
 * real traffic from {@code client}. Names are unique per JVM and instance ({@code fdt-PID-N}), and
 * {@link #close} deletes both namespaces (and with them the veth pair and whatever a fault left).
 * Needs root, ip, nft and tc: missing, the tests skip with the reason, or fail when CI=true.
 */
public final class NetLab implements AutoCloseable {

  public static final int PORT = 8080;

  private static final AtomicInteger COUNTER = new AtomicInteger();

  public final String client;
  public final String server;
  public final String clientDevice;
  public final String clientAddress;
  public final String serverAddress;
  private final List<Process> processes = new ArrayList<>();
  private final List<Fault> faults = new ArrayList<>();

  private NetLab(int n) {
    long pid = ProcessHandle.current().pid();
    client = "fdt-" + pid + "-" + n + "c";
    server = "fdt-" + pid + "-" + n + "s";
    // Device names hold at most 15 characters.
    clientDevice = "fdt" + (pid % 100_000) + "c" + n;
    // 10.200-201.x.y/30, one block per (pid, n): no other test's addresses.
    int block = (int) ((pid * 37 + n) % (2 * 256 * 64));
    String prefix = "10." + (200 + block / (256 * 64)) + "." + (block / 64 % 256) + ".";
    int base = (block % 64) * 4;
    clientAddress = prefix + (base + 1);
    serverAddress = prefix + (base + 2);
  }

  /** Skips (or fails in CI) unless root with ip, nft and tc. */
  public static void requireTools() {
    for (String tool : List.of("ip", "nft", "tc", "unshare")) {
      String pkg =
          tool.equals("nft") ? "nftables" : tool.equals("unshare") ? "util-linux" : "iproute2";
      RequiredBinary.require(
          find(tool),
          tool,
          "PATH",
          () ->
              "the "
                  + tool
                  + " binary is on neither the PATH nor /usr/sbin; install Debian's "
                  + pkg
                  + " (bin/install-deps --tests does)");
    }
    String uid = effectiveUid();
    if (!"0".equals(uid)) {
      String why =
          "the network fault tests create network namespaces and veth pairs, which needs root; this"
              + " runs as uid "
              + uid;
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        Assertions.fail(why + " (CI=true, so this fails instead of skipping)");
      }
      System.err.println("SKIPPED: " + why);
      Assumptions.abort(why);
    }
  }

  /** The effective uid, from /proc/self/status ("Uid: real effective saved fs"). */
  private static String effectiveUid() {
    try {
      return Files.readAllLines(Path.of("/proc/self/status")).stream()
          .filter(line -> line.startsWith("Uid:"))
          .map(line -> line.split("\\s+")[2])
          .findFirst()
          .orElse("unknown");
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  private static Optional<Path> find(String tool) {
    List<String> dirs =
        new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
    dirs.addAll(List.of("/usr/sbin", "/sbin"));
    return dirs.stream()
        .filter(d -> !d.isEmpty())
        .map(d -> Path.of(d, tool))
        .filter(Files::isExecutable)
        .findFirst();
  }

  /** Creates the namespaces and the veth pair; the caller closes it (in @AfterEach). */
  public static NetLab create() throws IOException, InterruptedException {
    requireTools();
    NetLab lab = new NetLab(COUNTER.incrementAndGet());
    try {
      lab.setUp();
    } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
      lab.close();
      throw e;
    }
    return lab;
  }

  private void setUp() throws IOException, InterruptedException {
    String peer = clientDevice + "p";
    run("ip", "netns", "add", client);
    run("ip", "netns", "add", server);
    run(
        "ip",
        "link",
        "add",
        clientDevice,
        "netns",
        client,
        "type",
        "veth",
        "peer",
        "name",
        peer,
        "netns",
        server);
    run("ip", "-n", client, "addr", "add", clientAddress + "/30", "dev", clientDevice);
    run("ip", "-n", server, "addr", "add", serverAddress + "/30", "dev", peer);
    for (String[] up :
        new String[][] {{client, clientDevice}, {server, peer}, {client, "lo"}, {server, "lo"}}) {
      run("ip", "-n", up[0], "link", "set", up[1], "up");
    }
    startServer();
  }

  private void startServer() throws IOException {
    Process process =
        new ProcessBuilder(
                "ip",
                "netns",
                "exec",
                server,
                Procs.java(),
                "-cp",
                classes(),
                SinkServer.class.getName(),
                serverAddress,
                String.valueOf(PORT))
            .redirectErrorStream(true)
            .start();
    processes.add(process);
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    // readLine returns at the first line or at exit: bounded by the server's own start.
    String line = out.readLine();
    assertThat(line).as("the sink server's first line").isEqualTo("listening");
  }

  /** The directory holding the test programs (only JDK classes besides). */
  private static String classes() {
    try {
      return Path.of(SinkServer.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code attempts} connections from client to the server, each with {@code timeoutMillis}. */
  public Connects connect(int attempts, int timeoutMillis)
      throws IOException, InterruptedException {
    String[] f =
        probe(
                "connect",
                serverAddress,
                String.valueOf(PORT),
                String.valueOf(attempts),
                String.valueOf(timeoutMillis))
            .split(" ");
    return new Connects(
        Integer.parseInt(f[1]),
        Integer.parseInt(f[3]),
        Integer.parseInt(f[5]),
        Integer.parseInt(f[7]),
        Long.parseLong(f[9]));
  }

  /** The outcome of a connect probe; {@code slowestMillis} is its slowest attempt. */
  public record Connects(int ok, int timeout, int refused, int other, long slowestMillis) {}

  /** Seconds to upload {@code bytes} from client to the server. */
  public double uploadSeconds(long bytes) throws IOException, InterruptedException {
    String[] f =
        probe("upload", serverAddress, String.valueOf(PORT), String.valueOf(bytes)).split(" ");
    return Long.parseLong(f[1]) / 1e9;
  }

  private String probe(String... args) throws IOException, InterruptedException {
    List<String> argv =
        new ArrayList<>(
            List.of(
                "ip",
                "netns",
                "exec",
                client,
                Procs.java(),
                "-cp",
                classes(),
                Probe.class.getName()));
    argv.addAll(List.of(args));
    Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
    processes.add(process);
    if (!process.waitFor(180, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the probe " + String.join(" ", args) + " ran over 180s");
    }
    String out =
        new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(process.exitValue()).as("the probe's exit; it printed: " + out).isZero();
    return out.lines().reduce((a, b) -> b).orElse("");
  }

  /** Runs a command, failing with its output unless it exits 0; returns stdout and stderr. */
  public static String run(String... argv) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(String.join(" ", argv) + " ran over 20s");
    }
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.exitValue() != 0) {
      throw new AssertionError(String.join(" ", argv) + " failed: " + out.strip());
    }
    return out;
  }

  /** {@link #close} reverts {@code fault} first, whatever the test left it in. */
  public Fault revertOnClose(Fault fault) {
    faults.add(fault);
    return fault;
  }

  /**
   * Reverts the faults handed to {@link #revertOnClose}, stops the server and probes and deletes
   * both namespaces, whatever state they are in.
   */
  @Override
  public void close() {
    for (Fault fault : faults) {
      try {
        fault.revert();
      } catch (FaultException | RuntimeException e) {
        System.err.println("could not revert " + fault.spec().kind() + ": " + e.getMessage());
      }
    }
    processes.forEach(Process::destroyForcibly);
    for (String namespace : List.of(client, server)) {
      try {
        Process del =
            new ProcessBuilder("ip", "netns", "del", namespace)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        del.waitFor(20, TimeUnit.SECONDS);
      } catch (IOException e) {
        System.err.println("could not delete netns " + namespace + ": " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
