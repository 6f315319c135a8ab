package dev.firedrill.cli;

import dev.firedrill.time.Durations;
import dev.firedrill.time.Clock;
import java.io.PrintWriter;
import java.io.Writer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The console of {@code firedrill run}. On a terminal it keeps one status line at the bottom
 * (phase, elapsed over planned, the latest readings, alerts pending and firing), rewritten in
 * place with {@code \r}; elsewhere it prints the lines alone. It sits at the writer, not at the
 * drill's listener, because the signal handler, the webhook receiver and the marker sinks print
 * to the same writer: every line, from any of them, clears the status, prints, and redraws it,
 * so the status is never broken mid-line.
 */
final class LiveStatus implements AutoCloseable {

  /** {@code DrillEvent.line()}: {@code +12.0s during ok: error_ratio 0.001 <= 0.005}. */
  private static final Pattern EVENT = Pattern.compile("\\+(\\d+(?:\\.\\d+)?)s (\\S+) (.*)");
  private static final Pattern MEASURED = Pattern.compile("(?:ok|breach|no-data|error): (.*)");
  private static final Pattern ALERT = Pattern.compile("(\\S+) (pending|firing)(?:, active since .*)?");
  private static final Pattern NUMBER = Pattern.compile("-?[0-9][0-9.eE+-]*|NaN|[+-]Inf");

  private final PrintWriter out;
  private final boolean terminal;
  private final Duration planned;
  private final Clock clock;
  private final int width;
  private final PrintWriter writer;
  private ScheduledExecutorService ticker;

  private String phase = "plan";
  private double offsetSeconds;
  private long offsetNanos;
  private String readings = "";
  private final Map<String, String> alerts = new LinkedHashMap<>();
  private int drawn;

  /** {@code width}: the terminal's columns; the status is cut to fit, since a wrapped line cannot be redrawn. */
  LiveStatus(PrintWriter out, boolean terminal, Duration planned, Clock clock, int width) {
    this.out = out;
    this.terminal = terminal;
    this.planned = planned;
    this.clock = clock;
    this.width = width;
    this.offsetNanos = clock.nanoTime();
    this.writer = new PrintWriter(new Lines(), true);
  }

  /** Where the drill's lines go. */
  PrintWriter writer() {
    return writer;
  }

  /** Redraws every {@code every}, so elapsed time moves while the drill waits between events. */
  void startTicking(Duration every) {
    if (!terminal) {
      return;
    }
    ticker = Executors.newSingleThreadScheduledExecutor(task -> {
      Thread thread = new Thread(task, "firedrill-status");
      thread.setDaemon(true);
      return thread;
    });
    ticker.scheduleAtFixedRate(this::redraw, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
  }

  synchronized void line(String line) {
    clear();
    out.print(line);
    out.print('\n');
    update(line);
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
  public synchronized void close() {
    if (ticker != null) {
      ticker.shutdownNow();
    }
    clear();
    out.flush();
  }

  String status() {
    long pending = alerts.values().stream().filter("pending"::equals).count();
    long firing = alerts.values().stream().filter("firing"::equals).count();
    double elapsed = offsetSeconds + (clock.nanoTime() - offsetNanos) / 1e9;
    String text = phase + " " + Durations.seconds(Duration.ofMillis((long) (elapsed * 1000))) + "/"
        + Durations.format(planned) + (readings.isEmpty() ? "" : " | " + readings)
        + " | alerts: " + pending + " pending, " + firing + " firing";
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

  private void update(String line) {
    Matcher event = EVENT.matcher(line);
    if (!event.matches()) {
      return;
    }
    offsetSeconds = Double.parseDouble(event.group(1));
    offsetNanos = clock.nanoTime();
    phase = event.group(2);
    String text = event.group(3);
    Matcher measured = MEASURED.matcher(text);
    if (measured.matches() && !"detect".equals(phase) && !"verdict".equals(phase)) {
      readings = compact(measured.group(1));
    }
    Matcher alert = ALERT.matcher(text);
    if ("detect".equals(phase) && alert.matches()) {
      alerts.put(alert.group(1), alert.group(2));
    }
  }

  /** {@code a 0.1 <= 0.5, b 7 outside >= 9} becomes {@code a=0.1 b=7!}; a breach ends in "!". */
  private static String compact(String readingsText) {
    StringBuilder out = new StringBuilder();
    for (String item : readingsText.split(", ")) {
      String[] tokens = item.split(" ");
      if (tokens.length < 2) {
        continue;
      }
      String value;
      if (tokens[1].equals("no")) {
        value = "no-data";
      } else if (tokens[1].equals("error:")) {
        value = "error";
      } else if (NUMBER.matcher(tokens[1]).matches()) {
        value = tokens[1] + (tokens.length > 2 && tokens[2].equals("outside") ? "!" : "");
      } else {
        continue; // the rest of a detail that itself held ", "
      }
      out.append(out.isEmpty() ? "" : " ").append(tokens[0]).append('=').append(value);
    }
    return out.toString();
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
