package dev.firedrill.cli;

import picocli.CommandLine.Option;

/** Options every command takes. */
final class CommonOptions {

  @Option(names = "--verbose", description = "Print stack traces with errors.")
  boolean verbose;
}
