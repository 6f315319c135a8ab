package dev.firedrill.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.lab.stack.ManagedProcess;
import dev.firedrill.lab.stack.TempDirs;
import dev.firedrill.net.Loopback;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The real {@code prometheus-pushgateway} on a free loopback port, in memory only (no persistence
 * file), in a temp dir of its own; skipped when the binary is missing, failing with {@code
 * CI=true}.
 */
public final class RealPushgateway implements AutoCloseable {

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(20);

  private final ManagedProcess process;
  private final Path dir;
  private final URI url;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private RealPushgateway(ManagedProcess process, Path dir, URI url) {
    this.process = process;
    this.dir = dir;
    this.url = url;
  }

  public static RealPushgateway start() {
    Path binary =
        RequiredBinary.find(
            "prometheus-pushgateway", "FIREDRILL_PUSHGATEWAY", "prometheus-pushgateway");
    IllegalStateException last = null;
    for (int attempt = 0;
        attempt < 3;
        attempt++) { // a free port can be taken before the Pushgateway binds it
      Path dir = TempDirs.create("firedrill-pushgateway-");
      int port = Loopback.freePort();
      URI url = URI.create("http://127.0.0.1:" + port);
      try {
        ManagedProcess process =
            ManagedProcess.start(
                "pushgateway",
                List.of(
                    binary.toString(),
                    "--web.listen-address=127.0.0.1:" + port,
                    "--persistence.file=",
                    "--log.level=info"),
                dir.resolve("pushgateway.log"),
                url.resolve("/-/ready"),
                READY_TIMEOUT,
                false,
                Clock.system());
        return new RealPushgateway(process, dir, url);
      } catch (IllegalStateException e) {
        TempDirs.delete(dir);
        last = e;
        if (!e.getMessage().contains("address already in use")) {
          break;
        }
      }
    }
    throw last;
  }

  public URI url() {
    return url;
  }

  /** The Pushgateway's own {@code /metrics}: every pushed series, with its grouping labels. */
  public String metricsText() {
    return get("/metrics");
  }

  /** Each group's labels, from {@code /api/v1/metrics}. */
  public List<Map<String, String>> groups() {
    try {
      JsonNode data = new ObjectMapper().readTree(get("/api/v1/metrics")).path("data");
      List<Map<String, String>> groups = new ArrayList<>();
      for (JsonNode group : data) {
        Map<String, String> labels = new TreeMap<>();
        group
            .path("labels")
            .properties()
            .iterator()
            .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        groups.add(labels);
      }
      return groups;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public String logTail(int lines) {
    return process.logTail(lines);
  }

  private String get(String path) {
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(url.resolve(path)).timeout(Duration.ofSeconds(5)).build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException(
            "GET " + url.resolve(path) + " answered " + response.statusCode());
      }
      return response.body();
    } catch (IOException e) {
      throw new UncheckedIOException("GET " + url.resolve(path) + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during GET " + url.resolve(path), e);
    }
  }

  @Override
  public void close() {
    process.close();
    TempDirs.delete(dir);
  }
}
