package dev.firedrill.cli;

import java.io.PrintWriter;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code --log-format}: whether the drill's structured events also go to stderr as JSON lines. */
final class LogFormatOption {

  enum Format {
    text,
    json
  }

  @Option(
      names = "--log-format",
      paramLabel = "FORMAT",
      defaultValue = "text",
      description =
          "text (default): the event log is written only beside the journal (<journal>.events.jsonl); "
              + "json: its JSON lines also go to stderr.")
  Format format = Format.text;

  boolean json() {
    return format == Format.json;
  }

  /** Where the JSON lines are copied: stderr with json, nowhere with text. */
  Optional<PrintWriter> copy(PrintWriter err) {
    return json() ? Optional.of(err) : Optional.empty();
  }
}
