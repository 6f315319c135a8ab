package dev.firedrill.marker.log;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.engine.DrillObserver;
import dev.firedrill.engine.JournalPaths;
import dev.firedrill.engine.Milestone;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.Numbers;
import dev.firedrill.guard.Reading;
import dev.firedrill.marker.MarkerTarget;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The drill as structured events, one JSON object per line (start, inject, breach, abort, rollback,
 * verdict, and the other markers' notes), each with {@code time}, {@code event} and {@code
 * experiment_id}. Every line is flushed as it is written, so a run killed with SIGKILL keeps what
 * it wrote. An output that fails is reported once and dropped; the drill goes on.
 */
public final class EventLog implements DrillObserver {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final String experimentId;
  private final Clock clock;
  private final Consumer<String> problems;
  private final List<Output> outputs;

  /**
   * Writes each line to every output in turn; {@code problems} gets one line when an output fails.
   * {@code clock} stamps notes, which carry no milestone time.
   */
  public EventLog(
      String experimentId, List<Output> outputs, Clock clock, Consumer<String> problems) {
    this.experimentId = experimentId;
    this.outputs = new ArrayList<>(outputs);
    this.clock = clock;
    this.problems = problems;
  }

  /** A place the lines go, how messages name it, and whether closing the log closes it. */
  public record Output(String name, Writer writer, boolean owned) {

    /**
     * A stream that belongs to someone else, such as the console's stderr: flushed, never closed.
     */
    public static Output borrowed(String name, Writer writer) {
      return new Output(name, writer, false);
    }
  }

  /** Opens {@code file} for appending (creating its directory), as an output named by its path. */
  public static Output file(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    return new Output(
        file.toString(),
        Files.newBufferedWriter(
            file,
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.APPEND,
            StandardOpenOption.WRITE),
        true);
  }

  /** {@code journals/x.json} becomes {@code journals/x.events.jsonl}. */
  public static Path besideJournal(Path journal) {
    return JournalPaths.beside(journal, ".events.jsonl");
  }

  @Override
  public void on(Milestone milestone) {
    if (milestone instanceof Milestone.DrillStarted s) {
      ObjectNode line = line(s.at(), "start");
      line.put("title", s.experiment().title());
      line.put("hypothesis", s.experiment().hypothesis().description());
      write(line);
    } else if (milestone instanceof Milestone.FaultInjected f) {
      ObjectNode line = line(f.at(), "inject");
      fault(line, f.index(), f.spec());
      line.put("target", MarkerTarget.of(f.spec(), f.selected()));
      line.put("applied", f.applied());
      f.failure().ifPresent(failure -> line.put("failure", failure));
      write(line);
    } else if (milestone instanceof Milestone.Measured m) {
      m.measurement()
          .readings()
          .filter(r -> r.status() == Reading.Status.BREACH)
          .forEach(
              r -> {
                ObjectNode line = line(m.at(), "breach");
                line.put("phase", m.phase().text());
                line.put("name", r.name());
                double value = r.value().getAsDouble();
                if (Double.isFinite(value)) {
                  line.put("value", value);
                } else {
                  line.put("value", Numbers.format(value));
                }
                line.put("range", r.expectation());
                write(line);
              });
    } else if (milestone instanceof Milestone.Aborted a) {
      write(line(a.at(), "abort").put("reason", a.reason()));
    } else if (milestone instanceof Milestone.FaultReverted r) {
      ObjectNode line = line(r.at(), "rollback");
      fault(line, r.index(), r.spec());
      line.put("reverted", r.reverted());
      write(line);
    } else if (milestone instanceof Milestone.DrillFinished f) {
      ObjectNode line = line(f.at(), "verdict");
      line.put("verdict", f.verdict().text());
      line.put("reason", f.reason());
      f.abortReason().ifPresent(reason -> line.put("abort_reason", reason));
      write(line);
    }
  }

  /** A line from another marker ({@code source}, such as grafana) about its own delivery. */
  public void note(String source, String text) {
    ObjectNode line = line(clock.now(), "marker_note");
    line.put("source", source);
    line.put("note", text);
    write(line);
  }

  @Override
  public synchronized void close(Duration limit) {
    for (Output output : outputs) {
      try {
        if (output.owned()) {
          output.writer().close();
        }
      } catch (IOException e) {
        // Every line was flushed when written; nothing is lost here.
      }
    }
    outputs.clear();
  }

  private ObjectNode line(Instant at, String event) {
    ObjectNode line = MAPPER.createObjectNode();
    line.put("time", at.toString());
    line.put("event", event);
    line.put("experiment_id", experimentId);
    return line;
  }

  private static void fault(ObjectNode line, int index, FaultSpec spec) {
    line.put("fault", index);
    line.put("kind", spec.kind());
    line.put("target", spec.targetName());
  }

  /** Drill thread and other markers' threads both write: one whole line at a time. */
  private synchronized void write(ObjectNode line) {
    String text = line.toString() + "\n";
    for (Output output : List.copyOf(outputs)) {
      try {
        output.writer().write(text);
        output.writer().flush();
      } catch (IOException e) {
        outputs.remove(output);
        problems.accept(
            "log: cannot write "
                + output.name()
                + " ("
                + e.getMessage()
                + "); the drill goes on without it");
      }
    }
  }
}
