package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.experiment.FaultSpec;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Every fault spec survives the journal: written as JSON text, read back equal, for cleanup. */
class FaultSpecJsonTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final URI ADMIN = URI.create("http://127.0.0.1:8474");
  private static final Optional<Duration> TTL = Optional.of(Duration.ofMinutes(5));

  @Test
  void everyKindRoundTrips() throws Exception {
    List<FaultSpec> specs = List.of(
        new FaultSpec.ProcessKill("payments-server", "TERM", Optional.of(0.5), TTL),
        new FaultSpec.CpuBurn(2, TTL),
        new FaultSpec.HttpToxic(ADMIN, "payments", 0.05, new FaultSpec.HttpToxic.Latency(Duration.ofMillis(200),
            Duration.ofMillis(20)), TTL, Optional.of("PROXY_TOKEN")),
        new FaultSpec.HttpToxic(ADMIN, "orders", 0.025, new FaultSpec.HttpToxic.Error(502), TTL, Optional.empty()),
        new FaultSpec.HttpToxic(ADMIN, "payments", 1, new FaultSpec.HttpToxic.Reset(), TTL, Optional.empty()),
        new FaultSpec.HttpToxic(ADMIN, "payments", 0.1, new FaultSpec.HttpToxic.Timeout(Duration.ofSeconds(3)),
            Optional.empty(), Optional.empty()),
        new FaultSpec.ExporterDown(ADMIN, "payments-metrics", FaultSpec.ExporterDown.Mode.ERROR, TTL, Optional.empty()),
        new FaultSpec.ExporterDown(ADMIN, "orders-metrics", FaultSpec.ExporterDown.Mode.RESET, Optional.empty(),
            Optional.of("PROXY_TOKEN")));
    for (FaultSpec spec : specs) {
      String text = FaultSpecJson.write(spec).toString();
      assertThat(FaultSpecJson.read(JSON.readTree(text))).as(text).isEqualTo(spec);
    }
  }

  @Test
  void anHttpToxicIsWrittenInTheFilesOwnWordsWithTheTokensPlaceNeverItsValue() {
    FaultSpec spec = new FaultSpec.HttpToxic(ADMIN, "payments", 0.05, new FaultSpec.HttpToxic.Latency(
        Duration.ofMillis(200), Duration.ZERO), TTL, Optional.of("PROXY_TOKEN"));
    assertThat(FaultSpecJson.write(spec).toString()).isEqualTo("{\"kind\":\"http-latency\","
        + "\"proxy\":\"http://127.0.0.1:8474\",\"proxy_name\":\"payments\",\"share\":0.05,\"latency\":\"200ms\","
        + "\"jitter\":\"0s\",\"admin_token_env\":\"PROXY_TOKEN\",\"ttl\":\"5m\"}");
  }

  @Test
  void anExporterDownIsWrittenInTheFilesOwnWords() throws Exception {
    FaultSpec spec = new FaultSpec.ExporterDown(URI.create("http://127.0.0.1:18475"), "payments-metrics",
        FaultSpec.ExporterDown.Mode.ERROR, Optional.of(Duration.ofMinutes(2)), Optional.empty());
    assertThat(FaultSpecJson.write(spec).toString()).isEqualTo("{\"kind\":\"exporter-down\","
        + "\"proxy\":\"http://127.0.0.1:18475\",\"proxy_name\":\"payments-metrics\",\"mode\":\"error\",\"ttl\":\"2m\"}");
    // A journal without a mode (written by hand) reads as the default, error.
    assertThat(FaultSpecJson.read(JSON.readTree("{\"kind\":\"exporter-down\",\"proxy\":\"http://127.0.0.1:18475\","
        + "\"proxy_name\":\"payments-metrics\",\"ttl\":\"2m\"}"))).isEqualTo(spec);
  }

  @Test
  void aJournalWrittenBeforeSharesReadsItsPercentAsAPercentage() throws Exception {
    assertThat(FaultSpecJson.read(JSON.readTree("{\"kind\":\"http-error\",\"proxy\":\"http://127.0.0.1:8474\","
        + "\"proxy_name\":\"payments\",\"percent\":20.0,\"status\":503,\"ttl\":\"5m\"}")))
        .isEqualTo(new FaultSpec.HttpToxic(ADMIN, "payments", 0.2, new FaultSpec.HttpToxic.Error(503), TTL,
            Optional.empty()));
    assertThat(FaultSpecJson.read(JSON.readTree("{\"kind\":\"process-kill\",\"match\":\"payments-server\","
        + "\"signal\":\"TERM\",\"percent\":50.0,\"ttl\":\"5m\"}")))
        .isEqualTo(new FaultSpec.ProcessKill("payments-server", "TERM", Optional.of(0.5), TTL));
  }
}
