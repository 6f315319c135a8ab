package dev.firedrill.cli;

import picocli.CommandLine.Option;

/** Options every command takes. */
final class CommonOptions {

  @Option(names = "--verbose", description = "Print stack traces with errors.")
  boolean verbose;

  @Option(
      names = "--no-color",
      description =
          "Plain text: no colours (there are none anyway when stdout is not a terminal or NO_COLOR is set).")
  boolean noColor;

  Colour colour() {
    return Colour.of(noColor);
  }
}
