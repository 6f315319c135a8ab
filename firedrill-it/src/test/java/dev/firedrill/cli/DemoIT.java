package dev.firedrill.cli;

import dev.firedrill.testing.RequiredBinary;
import org.junit.jupiter.api.BeforeAll;

/** {@code firedrill demo --stack real}: the real Prometheus and Alertmanager binaries. */
class DemoIT extends DemoChecks {

  @BeforeAll
  static void binaries() {
    RequiredBinary.find("prometheus", "FIREDRILL_PROMETHEUS", "prometheus");
    RequiredBinary.find(
        "prometheus-alertmanager", "FIREDRILL_ALERTMANAGER", "prometheus-alertmanager");
  }

  @Override
  String stack() {
    return "real";
  }

  @Override
  String[] stackLines() {
    return new String[] {"demo: Prometheus: real, ", "demo: Alertmanager: real, "};
  }
}
