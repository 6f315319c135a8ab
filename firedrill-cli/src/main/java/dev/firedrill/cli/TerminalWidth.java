package dev.firedrill.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * The terminal's columns, for the live status line (a line wider than the terminal wraps and can no
 * longer be redrawn): COLUMNS when the shell exports it, else what the terminal itself says ({@code
 * stty size} on /dev/tty), else 80, the width every terminal has.
 */
final class TerminalWidth {

  static final int FALLBACK = 80;

  private TerminalWidth() {}

  static int of(Map<String, String> env, Supplier<OptionalInt> terminal) {
    OptionalInt columns = positive(env.get("COLUMNS"));
    if (columns.isPresent()) {
      return columns.getAsInt();
    }
    return terminal.get().orElse(FALLBACK);
  }

  /** For this process: its environment, and its controlling terminal when it has one. */
  static int current() {
    return of(System.getenv(), TerminalWidth::stty);
  }

  /** {@code stty size} prints "ROWS COLUMNS" for the terminal on its standard input. */
  private static OptionalInt stty() {
    File tty = new File("/dev/tty");
    if (System.console() == null || !tty.canRead()) {
      return OptionalInt.empty();
    }
    try {
      Process process =
          new ProcessBuilder(List.of("stty", "size"))
              .redirectInput(tty)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (process.waitFor() != 0) {
        return OptionalInt.empty();
      }
      String[] words = text.strip().split("\\s+");
      return words.length == 2 ? positive(words[1]) : OptionalInt.empty();
    } catch (IOException e) {
      return OptionalInt.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return OptionalInt.empty();
    }
  }

  private static OptionalInt positive(String text) {
    if (text == null) {
      return OptionalInt.empty();
    }
    try {
      int value = Integer.parseInt(text.strip());
      return value > 0 ? OptionalInt.of(value) : OptionalInt.empty();
    } catch (NumberFormatException e) {
      return OptionalInt.empty();
    }
  }
}
