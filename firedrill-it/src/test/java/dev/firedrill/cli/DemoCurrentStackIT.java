package dev.firedrill.cli;

import dev.firedrill.testing.Stacks;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@code firedrill demo --stack real} on Prometheus 3.x and Alertmanager 0.3x, which it is pointed
 * at through {@code FIREDRILL_PROMETHEUS} and {@code FIREDRILL_ALERTMANAGER}, as a user with both
 * generations installed would.
 */
class DemoCurrentStackIT extends DemoChecks {

  private static Stacks.Pair pair;

  @BeforeAll
  static void binaries() {
    pair = Stacks.current();
  }

  @Override
  String stack() {
    return "real";
  }

  @Override
  Map<String, String> environment() {
    return Map.of(
        "FIREDRILL_PROMETHEUS",
        pair.prometheus().toString(),
        "FIREDRILL_ALERTMANAGER",
        pair.alertmanager().toString());
  }

  @Override
  String[] stackLines() {
    return new String[] {
      "demo: Prometheus: real, " + pair.prometheus(),
      "demo: Alertmanager: real, " + pair.alertmanager()
    };
  }
}
