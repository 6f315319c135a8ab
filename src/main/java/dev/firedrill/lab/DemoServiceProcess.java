package dev.firedrill.lab;

import dev.firedrill.fault.WorkerLauncher;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The demo's synthetic service as a process of its own session ({@code setsid -f}), so that
 * process faults may target it: firedrill never signals its own descendants. It exits by itself
 * after its lifetime even if nobody stops it.
 */
public final class DemoServiceProcess implements AutoCloseable {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

  private final int port;
  private final Clock clock;
  private ProcessHandle handle;

  private DemoServiceProcess(int port, Clock clock) {
    this.port = port;
    this.clock = clock;
  }

  /** Starts the service on a free loopback port and waits until it serves {@code /metrics}. */
  public static DemoServiceProcess start(double errorRatio, Duration lifetime, Clock clock)
      throws IOException, InterruptedException {
    DemoServiceProcess service = new DemoServiceProcess(freePort(), clock);
    List<String> command = new ArrayList<>(List.of("setsid", "-f"));
    command.addAll(WorkerLauncher.current().command(List.of("-Xmx64m", "-XX:TieredStopAtLevel=1"),
        SyntheticServiceMain.class, List.of("--port", Integer.toString(service.port),
            "--error-ratio", Double.toString(errorRatio),
            "--lifetime", lifetime.toSeconds() + "s")));
    Process launcher = WorkerLauncher.detached(command).start();
    launcher.waitFor();
    service.awaitServing();
    return service;
  }

  /** {@code 127.0.0.1:PORT}, as a scrape target. */
  public String address() {
    return "127.0.0.1:" + port;
  }

  /** A substring of the service's command line that no other process has: what a process fault matches. */
  public String match() {
    return SyntheticServiceMain.class.getSimpleName() + " --port " + port;
  }

  @Override
  public void close() {
    find().ifPresent(process -> {
      process.destroyForcibly();
    });
  }

  private Optional<ProcessHandle> find() {
    if (handle != null && handle.isAlive()) {
      return Optional.of(handle);
    }
    String match = match();
    handle = ProcessHandle.allProcesses()
        .filter(p -> p.info().arguments().map(args -> String.join(" ", args).contains(match)).orElse(false))
        .findFirst().orElse(null);
    return Optional.ofNullable(handle);
  }

  private void awaitServing() throws IOException, InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    HttpRequest metrics = HttpRequest.newBuilder(URI.create("http://" + address() + "/metrics"))
        .timeout(Duration.ofSeconds(1)).build();
    long deadline = clock.nanoTime() + START_TIMEOUT.toNanos();
    while (clock.nanoTime() < deadline) {
      try {
        if (http.send(metrics, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          find();
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      clock.sleep(Duration.ofMillis(100));
    }
    close();
    throw new IOException("the demo service did not serve http://" + address() + "/metrics within "
        + START_TIMEOUT.toSeconds() + "s");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
