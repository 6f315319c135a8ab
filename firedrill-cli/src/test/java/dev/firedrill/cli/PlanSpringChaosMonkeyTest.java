package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The jar finds spring-chaos-monkey through firedrill-spring's META-INF/services. */
class PlanSpringChaosMonkeyTest {

  @Test
  void thePlanNamesTheAssaultAndRefusesAnUnsetTokenInOneLine() {
    CliRun run = CliRun.of("plan", "fixtures/experiments/spring-chaos-monkey.yaml");

    assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.INVALID);
    assertThat(run.out() + run.err())
        .contains(
            "fault 0 (spring-chaos-monkey, ttl 3m, enforced by the watchdog):\n"
                + "  1 in 5 calls (deterministic) to service, repository beans of 127.0.0.1:8080"
                + " delayed 100ms..300ms\n")
        .contains(
            "method.faults[0] (spring-chaos-monkey): spring-chaos-monkey: actuator token:"
                + " environment variable ORDERS_ACTUATOR_TOKEN is not set (expected the"
                + " actuator's bearer token)")
        .doesNotContain("Exception");
  }

  @Test
  void anHttpLatencyOnToxiproxyPlansItsToxicAndTheWatchdog() {
    CliRun run = CliRun.of("plan", "fixtures/experiments/toxiproxy-latency.yaml");

    assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.HELD);
    // Each plan draws a fresh run id, part of the toxic's name: RUN here.
    assertThat(run.out().replaceAll("-[0-9a-f]{8}-0", "-RUN-0"))
        .contains(
            "  POST http://127.0.0.1:8474/proxies/payments/toxics"
                + " {\"name\":\"firedrill-payments-latency-toxiproxy-RUN-0\",\"type\":\"latency\","
                + "\"stream\":\"downstream\",\"toxicity\":0.05,"
                + "\"attributes\":{\"latency\":200,\"jitter\":20}}\n"
                + "  Toxiproxy has no ttl: at the end, or by the watchdog 10m after injection if"
                + " firedrill dies, DELETE"
                + " http://127.0.0.1:8474/proxies/payments/toxics/firedrill-payments-latency-toxiproxy-RUN-0;"
                + " verified by GET http://127.0.0.1:8474/proxies/payments/toxics no longer"
                + " listing firedrill-payments-latency-toxiproxy-RUN-0\n");
  }
}
