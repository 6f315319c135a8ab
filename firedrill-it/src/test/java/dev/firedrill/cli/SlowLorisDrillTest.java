package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.testing.BetweenDrills;
import dev.firedrill.testing.Poll;
import dev.firedrill.testing.RealLab;
import dev.firedrill.testing.SlowLoris;
import dev.firedrill.testing.Stacks;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A drill of an {@code http-latency} fault through the lab's fault proxy, detected by firedrill's
 * own webhook receiver, while {@value #CONNECTIONS} connections to each of the receiver, the
 * proxy's data port and the proxy's admin API send a byte a second of a header that never ends
 * (each one the server cuts is replaced, so the attack lasts the whole drill): the drill still
 * measures every interval, sees the page arrive by webhook, rolls back and verifies, and ends when
 * its plan says; and the three servers each cut slow clients (the attack had to open more than it
 * holds). The real Prometheus and Alertmanager, on loopback; the attack is bounded in count and in
 * time. The drill carries Prometheus's and Alertmanager's tokens from files, recognisable values
 * that the lab's servers receive: neither shows in the lab's logs and data (its processes' logs,
 * Prometheus's and Alertmanager's), the journal or the console.
 */
class SlowLorisDrillTest {

  private static final int CONNECTIONS = 300;
  private static final Duration METHOD = Duration.ofSeconds(25);
  private static final Duration RECOVERY = Duration.ofSeconds(20);
  private static final Duration INTERVAL = Duration.ofSeconds(1);

  /**
   * Beyond the method and the recovery: the measurements before injection, the last one after the
   * rollback, starting the receiver and writing the journal, on a loaded two-core machine.
   */
  private static final Duration MARGIN = Duration.ofSeconds(15);

  private static final String EXPERIMENT =
      """
      id: slow-loris
      title: Checkout pages on payments latency while slow clients hold the receiver and the proxy
      prometheus: {url: http://127.0.0.1:19090, timeout: 2s, bearer_token_file: '%s'}
      alertmanager: {url: http://127.0.0.1:19093, bearer_token_file: '%s'}
      receiver: {listen: 127.0.0.1:19101}
      steady_state:
        interval: %ds
        slis:
          - name: checkout_error_ratio
            query: service:http_error_ratio:rate5s{service="checkout"}
            max: 0.5
      hypothesis:
        recovery: %ds
        alerts:
          - alert: CheckoutLatencyHigh
            within: %ds
            receiver: team-checkout
      method:
        duration: %ds
        faults:
          - kind: http-latency
            proxy: http://127.0.0.1:18474
            proxy_name: payments
            share: 1
            latency: 800ms
            ttl: 2m
      abort:
        rules:
          - sli: checkout_error_ratio
            above: 2
      blast_radius:
        traffic_share: 100%%
        max_duration: 5m
      """;

  @TempDir Path dir;

  @Test
  void aDrillUnderSlowLorisMeasuresDetectsByWebhookRollsBackAndEndsOnPlan() throws Exception {
    try (RealLab lab =
        RealLab.start(Stacks.stable(), "slow-loris", LabStackOptions.firedrillCommand())) {
      BetweenDrills.awaitQuiet(lab.stack().prometheusUrl(), lab.stack().prometheusUrl());
      LeakHunt hunt = new LeakHunt();
      Path prometheusToken =
          Files.writeString(dir.resolve("prometheus.token"), hunt.secret("prometheus") + "\n");
      Path alertmanagerToken =
          Files.writeString(dir.resolve("alertmanager.token"), hunt.secret("alertmanager") + "\n");
      Path file =
          Files.writeString(
              dir.resolve("slow-loris.yaml"),
              lab.ports()
                  .rewrite(
                      EXPERIMENT.formatted(
                          prometheusToken,
                          alertmanagerToken,
                          INTERVAL.toSeconds(),
                          RECOVERY.toSeconds(),
                          METHOD.toSeconds(),
                          METHOD.toSeconds())));
      Path out = Files.createDirectory(dir.resolve("out")); // scanned; the token files are not
      Path journal = out.resolve("slow-loris.json");
      Duration attack = METHOD.plus(RECOVERY).plus(MARGIN);

      CliRun run;
      try (SlowLoris proxyData = loris(lab.ports().proxy(), attack);
          SlowLoris proxyAdmin = loris(lab.ports().proxyAdmin(), attack)) {
        CompletableFuture<CliRun> drill =
            CompletableFuture.supplyAsync(
                () ->
                    CliRun.of(
                        "run",
                        file.toString(),
                        "--journal",
                        journal.toString(),
                        "--history",
                        CliRun.historyBeside(journal)));
        // The receiver is the drill's own: it is attacked from the moment it listens.
        Poll.until(
            "the drill's receiver to listen on " + lab.ports().webhook(),
            Duration.ofSeconds(30),
            () -> {
              if (drill.isDone()) {
                return Optional.of(false);
              }
              try (Socket ignored = new Socket("127.0.0.1", lab.ports().webhook())) {
                return Optional.of(true);
              }
            });
        try (SlowLoris receiver = loris(lab.ports().webhook(), attack)) {
          run = drill.get(METHOD.plus(RECOVERY).plus(MARGIN).toSeconds() * 4, TimeUnit.SECONDS);
          report(
              List.of("receiver", "proxy data", "proxy admin"),
              List.of(receiver, proxyData, proxyAdmin));
          assertThat(receiver.connections()).isEqualTo(CONNECTIONS);
          assertThat(receiver.opened())
              .as("the receiver cut slow clients, and the attack replaced them")
              .isGreaterThan(CONNECTIONS);
        }
        assertThat(proxyAdmin.opened())
            .as("the admin API cut slow clients, and the attack replaced them")
            .isGreaterThan(CONNECTIONS);
        assertThat(proxyData.opened())
            .as("the proxy's data port cut slow clients, and the attack replaced them")
            .isGreaterThan(CONNECTIONS);
      } finally {
        BetweenDrills.deliverResolved(lab.ports().webhook(), "CheckoutLatencyHigh");
      }
      assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.HELD);
      hunt.console("the drill", run);
      assertThat(lab.dir().resolve("logs")).as("the lab's processes' logs").isNotEmptyDirectory();
      hunt.assertNowhere(List.of(lab.dir(), out));
      JsonNode result = new ObjectMapper().readTree(journal.toFile());

      // Measured on schedule while the fault was on: one reading an interval, give or take one.
      List<Instant> during = new ArrayList<>();
      for (JsonNode measurement : result.path("measurements")) {
        if (measurement.path("phase").asText().equals("during")) {
          during.add(Instant.parse(measurement.path("at").asText()));
        }
      }
      assertThat(during.size())
          .as("readings while the fault was on, %s apart: %s", INTERVAL, during)
          .isGreaterThanOrEqualTo((int) (METHOD.dividedBy(INTERVAL)) - 2);

      // Detected through the webhook, within its window.
      JsonNode page = DetectionDrills.row(result, "CheckoutLatencyHigh");
      assertThat(result.path("detection").path("verdict").asText()).isEqualTo("held");
      assertThat(page.path("detect_source").asText()).isEqualTo("webhook startsAt");
      assertThat(page.path("receiver").asText()).isEqualTo("yes");
      assertThat(result.path("receiver").path("rejected").asLong()).isZero();

      // Rolled back and verified.
      assertThat(result.path("rollback_ok").asBoolean()).as(result.toString()).isTrue();
      JsonNode fault = result.path("faults").get(0);
      assertThat(fault.path("reverted").asBoolean()).isTrue();
      assertThat(fault.path("revert").path("ok").asBoolean()).isTrue();
      assertThat(result.hasNonNull("recovered_at")).as("recovery verified").isTrue();

      // Ended on plan.
      Duration took =
          Duration.between(
              Instant.parse(result.path("started_at").asText()),
              Instant.parse(result.path("finished_at").asText()));
      Duration planned = METHOD.plus(RECOVERY);
      System.out.printf(
          Locale.ROOT,
          "slow-loris drill: %d connections each on receiver, proxy data, proxy admin; drill"
              + " %.1f s (method %d s + recovery up to %d s); %d readings during the fault, largest"
              + " gap %.2f s; CheckoutLatencyHigh detected %.1f s after injection (floor %.1f s),"
              + " notified %.1f s%n",
          CONNECTIONS,
          took.toMillis() / 1000.0,
          METHOD.toSeconds(),
          RECOVERY.toSeconds(),
          during.size(),
          largestGap(during).toMillis() / 1000.0,
          page.path("time_to_detect_s").asDouble(),
          page.path("floor_s").asDouble(),
          page.path("time_to_notify_s").asDouble());
      assertThat(took).as("the drill's length against its plan").isLessThan(planned.plus(MARGIN));
    }
  }

  private static SlowLoris loris(int port, Duration limit) {
    return SlowLoris.sustained(new InetSocketAddress("127.0.0.1", port), CONNECTIONS, limit);
  }

  private static void report(List<String> names, List<SlowLoris> attacks) {
    for (int i = 0; i < names.size(); i++) {
      System.out.printf(
          Locale.ROOT,
          "slow-loris on the %s: %d held at once, %d opened in all, %d cut by the server%n",
          names.get(i),
          attacks.get(i).connections(),
          attacks.get(i).opened(),
          attacks.get(i).cutByServer());
    }
  }

  private static Duration largestGap(List<Instant> times) {
    Duration largest = Duration.ZERO;
    for (int i = 1; i < times.size(); i++) {
      Duration gap = Duration.between(times.get(i - 1), times.get(i));
      if (gap.compareTo(largest) > 0) {
        largest = gap;
      }
    }
    return largest;
  }
}
