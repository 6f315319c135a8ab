package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Colours on a terminal only, never with NO_COLOR or --no-color; verdicts by their meaning. */
class ColourTest {

  private static final Map<String, String> TERMINAL = Map.of("TERM", "xterm-256color");

  @Test
  void onATerminalVerdictsAreGreenRedYellow() {
    Colour colour = Colour.of(false, true, TERMINAL);

    assertThat(colour.verdict("held")).isEqualTo("\u001b[32mheld\u001b[0m");
    assertThat(colour.verdict("deviated")).isEqualTo("\u001b[31mdeviated\u001b[0m");
    assertThat(colour.verdict("inconclusive")).isEqualTo("\u001b[33minconclusive\u001b[0m");
    assertThat(colour.verdict("experiment")).isEqualTo("experiment");
  }

  @Test
  void plainWithoutAConsoleWithADumbTermWithNoColorOrWithTheFlag() {
    assertThat(Colour.of(false, false, TERMINAL).on()).isFalse();
    assertThat(Colour.of(false, true, Map.of("TERM", "dumb")).on()).isFalse();
    assertThat(Colour.of(false, true, Map.of()).on()).isFalse();
    assertThat(Colour.of(false, true, Map.of("TERM", "xterm", "NO_COLOR", "")).on()).isFalse();
    assertThat(Colour.of(true, true, TERMINAL).on()).isFalse();
    assertThat(Colour.of(true, true, TERMINAL).verdict("held")).isEqualTo("held");
  }

  @Test
  void testsRunWithoutAConsoleSoCommandsPrintPlainWords() {
    CliRun run = CliRun.of("validate", "fixtures/experiments/payments-outage.yaml");

    assertThat(run.out()).doesNotContain("\u001b[");
  }
}
