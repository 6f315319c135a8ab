package dev.firedrill.cli;

import dev.firedrill.alerting.AlertState;
import dev.firedrill.engine.DrillObserver;
import dev.firedrill.engine.Milestone;
import dev.firedrill.engine.MilestoneText;
import dev.firedrill.engine.Phase;
import dev.firedrill.experiment.Numbers;
import dev.firedrill.guard.Measurement;
import dev.firedrill.time.Clock;
import dev.firedrill.time.Durations;
import java.io.PrintWriter;
import java.io.Writer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The console of {@code firedrill run}. It prints each milestone's lines, and on a terminal keeps
 * one status line at the bottom (phase, elapsed over planned, the latest readings, alerts pending
 * and firing), rewritten in place with {@code \r}; elsewhere it prints the lines alone. The status
 * is read from the milestones' fields. The signal handler, the webhook receiver and the marker
 * sinks print to its {@link #writer()}: every line, from any of them, clears the status, prints,
 * and redraws it, so the status is never broken mid-line.
 */
final class LiveStatus implements DrillObserver {

  private final PrintWriter out;
  private final boolean terminal;
  private final Duration planned;
  private final Clock clock;
  private final int width;
  private final PrintWriter writer;
  private final Colour colour;
  private final String prefix;
  private ScheduledExecutorService ticker;

  private Phase phase = Phase.PLAN;
  private Duration offset = Duration.ZERO;
  private long offsetNanos;
  private String readings = "";

  /** The elapsed time last shown: a milestone stamped earlier never moves the clock back. */
  private Duration shown = Duration.ZERO;

  /** Each expected alert's state; resolved ones are dropped, the status counts what is active. */
  private final Map<String, AlertState> alerts = new LinkedHashMap<>();

  private int drawn;

  /**
   * {@code width}: the terminal's columns; the status is cut to fit, since a wrapped line cannot be
   * redrawn.
   */
  LiveStatus(PrintWriter out, boolean terminal, Duration planned, Clock clock, int width) {
    this(out, terminal, planned, clock, width, new Colour(false), "");
  }

  /** {@code colour}: the verdict line's colour. */
  LiveStatus(
      PrintWriter out, boolean terminal, Duration planned, Clock clock, int width, Colour colour) {
    this(out, terminal, planned, clock, width, colour, "");
  }

  /**
   * {@code colour}: the verdict line's colour; {@code prefix} leads the status line: a suite's
   * "drill 2 of 5 payments-outage | ".
   */
  LiveStatus(
      PrintWriter out,
      boolean terminal,
      Duration planned,
      Clock clock,
      int width,
      Colour colour,
      String prefix) {
    this.colour = colour;
    this.prefix = prefix;
    this.out = out;
    this.terminal = terminal;
    this.planned = planned;
    this.clock = clock;
    this.width = width;
    this.offsetNanos = clock.nanoTime();
    this.writer = new PrintWriter(new Lines(), true);
  }

  /** Where the lines that are not the drill's milestones go. */
  PrintWriter writer() {
    return writer;
  }

  /**
   * Takes the milestone's state into the status, then prints its lines (or redraws, when it has
   * none).
   */
  @Override
  public synchronized void on(Milestone milestone) {
    update(milestone);
    List<String> lines = MilestoneText.console(milestone);
    if (lines.isEmpty()) {
      redraw();
    }
    if (milestone instanceof Milestone.DrillFinished finished && !lines.isEmpty()) {
      String verdict = finished.verdict().text();
      lines = new ArrayList<>(lines);
      lines.set(
          0,
          lines
              .get(0)
              .replaceFirst(
                  Pattern.quote(verdict + ":"),
                  Matcher.quoteReplacement(colour.verdict(verdict) + ":")));
    }
    lines.forEach(this::line);
  }

  /** Redraws every {@code every}, so elapsed time moves while the drill waits between events. */
  void startTicking(Duration every) {
    if (!terminal) {
      return;
    }
    ticker =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "firedrill-status");
              thread.setDaemon(true);
              return thread;
            });
    ticker.scheduleAtFixedRate(
        this::redraw, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
  }

  synchronized void line(String line) {
    clear();
    out.print(line);
    out.print('\n');
    draw();
    out.flush();
  }

  synchronized void redraw() {
    if (terminal) {
      clear();
      draw();
      out.flush();
    }
  }

  /** Removes the status line, leaving the terminal as plain lines; never waits for the ticker. */
  @Override
  public synchronized void close(Duration limit) {
    if (ticker != null) {
      ticker.shutdownNow();
    }
    clear();
    out.flush();
  }

  synchronized String status() {
    long pending = alerts.values().stream().filter(AlertState.PENDING::equals).count();
    long firing = alerts.values().stream().filter(AlertState.FIRING::equals).count();
    Duration elapsed = offset.plusNanos(clock.nanoTime() - offsetNanos);
    if (elapsed.compareTo(shown) < 0) {
      elapsed = shown;
    }
    shown = elapsed;
    String text =
        prefix
            + phase.text()
            + " "
            + Durations.seconds(elapsed)
            + "/"
            + Durations.format(planned)
            + (readings.isEmpty() ? "" : " | " + readings)
            + " | alerts: "
            + pending
            + " pending, "
            + firing
            + " firing";
    return text.length() < width ? text : text.substring(0, Math.max(0, width - 2)) + "~";
  }

  private void clear() {
    if (terminal && drawn > 0) {
      out.print("\r" + " ".repeat(drawn) + "\r");
      drawn = 0;
    }
  }

  private void draw() {
    if (terminal) {
      String text = status();
      out.print(text);
      drawn = text.length();
    }
  }

  private void update(Milestone m) {
    offset = m.offset();
    offsetNanos = clock.nanoTime();
    if (m instanceof Milestone.PhaseStarted started) {
      phase = started.phase();
    } else if (m instanceof Milestone.DrillFinished || m instanceof Milestone.Refused) {
      phase = Phase.VERDICT;
    } else if (m instanceof Milestone.Measured measured) {
      readings = compact(measured.measurement());
    } else if (m instanceof Milestone.AlertStateChanged changed) {
      if (changed.state() == AlertState.RESOLVED) {
        alerts.remove(changed.alert());
      } else {
        alerts.put(changed.alert(), changed.state());
      }
    }
  }

  /** {@code a=0.1 b=7! c=no-data}: each reading's value, a breach ending in "!". */
  private static String compact(Measurement measurement) {
    return measurement
        .readings()
        .map(
            r ->
                r.name()
                    + "="
                    + switch (r.status()) {
                      case OK -> Numbers.format(r.value().getAsDouble());
                      case BREACH -> Numbers.format(r.value().getAsDouble()) + "!";
                      case NO_DATA -> "no-data";
                      case ERROR -> "error";
                    })
        .collect(Collectors.joining(" "));
  }

  /** Collects what is printed into lines; a line reaches {@link #line} when its newline does. */
  private final class Lines extends Writer {
    private final StringBuilder pending = new StringBuilder();

    @Override
    public void write(char[] chars, int offset, int length) {
      synchronized (LiveStatus.this) {
        for (int i = offset; i < offset + length; i++) {
          char c = chars[i];
          if (c == '\n') {
            line(pending.toString());
            pending.setLength(0);
          } else if (c != '\r') {
            pending.append(c);
          }
        }
      }
    }

    @Override
    public void flush() {
      synchronized (LiveStatus.this) {
        out.flush();
      }
    }

    @Override
    public void close() {
      flush();
    }
  }
}
