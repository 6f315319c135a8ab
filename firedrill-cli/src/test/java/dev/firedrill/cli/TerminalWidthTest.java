package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class TerminalWidthTest {

  @Test
  void columnsWinsThenTheTerminalThenEighty() {
    assertThat(TerminalWidth.of(Map.of("COLUMNS", "132"), () -> OptionalInt.of(100)))
        .isEqualTo(132);
    assertThat(TerminalWidth.of(Map.of(), () -> OptionalInt.of(100))).isEqualTo(100);
    assertThat(TerminalWidth.of(Map.of("COLUMNS", "wide"), () -> OptionalInt.of(100)))
        .isEqualTo(100);
    assertThat(TerminalWidth.of(Map.of("COLUMNS", "0"), OptionalInt::empty)).isEqualTo(80);
  }
}
