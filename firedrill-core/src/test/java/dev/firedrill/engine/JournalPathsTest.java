package dev.firedrill.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class JournalPathsTest {

  private static final Instant AT = Instant.parse("2026-11-29T10:00:05.900Z");

  @Test
  void defaultJournalsNameTheExperimentAndTheUtcSecond() {
    assertThat(JournalPaths.run("payments-outage", AT))
        .isEqualTo(Path.of("journals/payments-outage-20261129-100005.json"));
    assertThat(JournalPaths.simulation("payments-outage", AT))
        .isEqualTo(Path.of("journals/payments-outage-simulated-20261129-100005.json"));
    assertThat(JournalPaths.demoDirectory(AT)).isEqualTo(Path.of("journals/demo-20261129-100005"));
    assertThat(JournalPaths.inDirectory(Path.of("/tmp/demo"), "payments-latency"))
        .isEqualTo(Path.of("/tmp/demo/payments-latency.journal.json"));
  }

  @Test
  void aFileBesideAJournalDropsItsJsonExtension() {
    assertThat(JournalPaths.beside(Path.of("/j/payments.journal.json"), ".html"))
        .isEqualTo(Path.of("/j/payments.journal.html"));
    assertThat(JournalPaths.beside(Path.of("/j/run"), ".html")).isEqualTo(Path.of("/j/run.html"));
    assertThat(JournalPaths.beside(Path.of("journals/x-1.json"), ".events.jsonl"))
        .isEqualTo(Path.of("journals/x-1.events.jsonl"));
  }
}
