package dev.firedrill.cli;

/**
 * {@code firedrill demo --stack embedded}: Java alone, what a machine without the binaries runs.
 */
class DemoEmbeddedIT extends DemoChecks {

  @Override
  String stack() {
    return "embedded";
  }

  @Override
  String[] stackLines() {
    return new String[] {
      "demo: Prometheus: embedded (--stack embedded)",
      "demo: Alertmanager: embedded (--stack embedded)"
    };
  }
}
