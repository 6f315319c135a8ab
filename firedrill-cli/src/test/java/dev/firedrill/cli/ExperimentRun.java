package dev.firedrill.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * One in-process {@code firedrill run} of an experiment written to {@code dir/NAME.yaml}, with its
 * journal at {@code dir/NAME.json} and a history of its own beside it: what it printed, its journal
 * and how long the command took on the clock.
 */
record ExperimentRun(CliRun run, JsonNode journal, Duration took) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The drill's own time, from the journal's {@code started_at} to its {@code finished_at}. */
  Duration drillTime() {
    return Duration.between(
        Instant.parse(journal.get("started_at").asText()),
        Instant.parse(journal.get("finished_at").asText()));
  }

  static ExperimentRun of(Path dir, String name, String experiment) throws IOException {
    Path file = dir.resolve(name + ".yaml");
    Files.writeString(file, experiment);
    Path journal = dir.resolve(name + ".json");
    long start = System.nanoTime();
    CliRun run =
        CliRun.of(
            "run",
            file.toString(),
            "--journal",
            journal.toString(),
            "--history",
            CliRun.historyBeside(journal));
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    return new ExperimentRun(run, JSON.readTree(journal.toFile()), took);
  }
}
