package dev.firedrill.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.testing.DemoStack;
import dev.firedrill.testing.Results;
import dev.firedrill.testing.SyntheticService;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * firedrill, from the packaged jar, injects an http-latency toxic into a proxy in this JVM and is
 * killed with SIGKILL: the toxic stays in force, then the proxy removes it at its ttl, with no call
 * from firedrill (the expired counter says the ttl removed it, not a DELETE).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProxySigkillIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  @RegisterExtension static final DemoStack stack = new DemoStack();

  @TempDir Path dir;

  private Upstream upstream;
  private FaultProxy proxy;
  private Process firedrill;

  @BeforeEach
  void start() throws IOException {
    upstream = new Upstream();
    proxy = Proxies.http(upstream.url());
    stack
        .prometheus()
        .awaitQuery(
            SyntheticService.ERROR_RATIO, Results.valueNear(0, 1e-9), Duration.ofSeconds(30));
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (firedrill != null) {
      firedrill.destroyForcibly();
      firedrill.waitFor(10, TimeUnit.SECONDS);
    }
    proxy.close();
    upstream.close();
  }

  @Test
  void theToxicOutlivesFiredrillAndExpiresAtItsTtl() throws Exception {
    String jar = System.getenv("FIREDRILL_JAR");
    assertThat(jar)
        .as("FIREDRILL_JAR (set by failsafe to the shaded jar; run mvn verify)")
        .isNotBlank();
    assertThat(Path.of(jar)).as("the packaged jar").exists();
    Path experiment = experiment();
    Path journal = dir.resolve("journal.json");
    firedrill =
        new ProcessBuilder(
                List.of(
                    javaBinary(),
                    "-jar",
                    jar,
                    "run",
                    experiment.toString(),
                    "--journal",
                    journal.toString()))
            .redirectOutput(dir.resolve("out.txt").toFile())
            .redirectError(dir.resolve("err.txt").toFile())
            .start();

    JsonNode seen =
        awaitJournal(journal, j -> j.path("faults").path(0).path("state").hasNonNull("toxic"));
    long injectedBy = System.nanoTime();
    firedrill.destroyForcibly(); // SIGKILL on Linux
    assertThat(firedrill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(firedrill.exitValue()).isEqualTo(137);

    String toxic = seen.path("faults").path(0).path("state").path("toxic").asText();
    assertThat(toxic).matches("firedrill-proxy-sigkill-[0-9a-f]{8}-0"); // with this run's id
    Admin admin = new Admin(proxy.adminUrl());
    Admin.Answer still = admin.get("/proxies/payments/toxics/" + toxic);
    assertThat(still.status())
        .as("the toxic right after the kill: %s", still.text())
        .isEqualTo(200);
    assertThat(still.json().path("ttl").asText()).isEqualTo("8s");
    long start = System.nanoTime();
    assertThat(
            CLIENT
                .send(
                    HttpRequest.newBuilder(proxy.url().resolve("/ok"))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .statusCode())
        .isEqualTo(200);
    assertThat((System.nanoTime() - start) / 1e6)
        .as("latency through the proxy while the toxic holds")
        .isGreaterThanOrEqualTo(190.0);

    int status = 200;
    while (status == 200 && System.nanoTime() - injectedBy < 15_000_000_000L) {
      Thread.sleep(100);
      status = admin.get("/proxies/payments/toxics/" + toxic).status();
    }
    double goneAfter = (System.nanoTime() - injectedBy) / 1e9;
    assertThat(status).as("the toxic %.1f s after the journal showed it", goneAfter).isEqualTo(404);
    assertThat(goneAfter)
        .as("seconds from the journal showing the toxic to its removal (ttl 8s)")
        .isLessThan(9.5);
    assertThat(scrape())
        .as("removed by its ttl, not by a DELETE")
        .contains("firedrill_proxy_toxics_expired_total 1.0");
    System.out.printf(
        "ProxySigkillIT: toxic %s gone %.1f s after the journal showed it (ttl 8s)%n",
        toxic, goneAfter);

    JsonNode after = JSON.readTree(journal.toFile());
    assertThat(after.path("faults").path(0).path("reverted").asBoolean()).isFalse();
    assertThat(after.has("verdict")).isFalse();
  }

  private String scrape() throws Exception {
    URI metrics =
        URI.create(
            "http://127.0.0.1:" + proxy.metricsAddress().orElseThrow().getPort() + "/metrics");
    return CLIENT
        .send(
            HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private JsonNode awaitJournal(Path journal, Predicate<JsonNode> until) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    List<String> last = new ArrayList<>();
    while (System.nanoTime() < deadline) {
      assertThat(firedrill.isAlive())
          .as(
              "firedrill still running; stderr: %s; stdout: %s",
              read(dir.resolve("err.txt")), read(dir.resolve("out.txt")))
          .isTrue();
      if (Files.exists(journal)) {
        try {
          JsonNode json = JSON.readTree(journal.toFile());
          if (until.test(json)) {
            return json;
          }
          last.add(json.path("faults").toString());
        } catch (IOException e) {
          // renamed into place; read again
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError(
        "the journal never showed the toxic; last faults: "
            + last
            + "; stdout: "
            + read(dir.resolve("out.txt")));
  }

  private Path experiment() throws IOException {
    String yaml =
        """
        id: proxy-sigkill
        title: An http-latency toxic outlives a killed firedrill
        prometheus:
          url: %s
          timeout: 2s
        steady_state:
          interval: 1s
          slis:
            - name: error_ratio
              query: '%s'
              max: 0.02
        method:
          duration: 6s
          faults:
            - kind: http-latency
              proxy: %s
              latency: 200ms
              jitter: 10ms
              share: 1
              ttl: 8s
        abort:
          rules:
            - sli: error_ratio
              above: 0.5
        blast_radius:
          traffic_share: 100%%
          max_duration: 10s
        """
            .formatted(stack.prometheus().url(), SyntheticService.ERROR_RATIO, proxy.adminUrl());
    Path file = dir.resolve("proxy-sigkill.yaml");
    Files.writeString(file, yaml);
    return file;
  }

  private static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      return "";
    }
  }
}
