package dev.firedrill.testing.hostile;

import dev.firedrill.format.ControlChars;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * The property every parser of the project keeps on any input: it succeeds, or it refuses with
 * problems that are each one line naming where, without control characters; never an uncaught
 * exception, more than {@link #BOUND} of CPU on one input, or memory exhaustion. A parser's test
 * says how it reads (returning its problem lines, none on success) and what a position looks like
 * in its lines.
 *
 * <p>The bound is on the reading thread's CPU time, not the clock, so a loaded machine (CI shares
 * its cores) does not fail a parser that is only waiting for one. Inputs are read on the caller's
 * thread (a hand-off per input cost more than most parses on a loaded machine); a watchdog
 * interrupts a read past the bound, and past {@link #WALL} on the clock prints the input to the
 * standard error, so that a parser that never returns still names what it was reading.
 */
public final class CleanOutcome implements AutoCloseable {

  /** How much CPU one input may take. */
  public static final Duration BOUND = Duration.ofSeconds(2);

  /** When the watchdog names an input that is still being read, whatever its CPU. */
  public static final Duration WALL = Duration.ofSeconds(20);

  private static final int EXCERPT = 300;
  private static final long POLL_MILLIS = 50;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final String parser;
  private final Pattern position;
  private final AtomicInteger inputs = new AtomicInteger();
  private final AtomicLong cpuNanos = new AtomicLong();
  private final AtomicLong wallNanos = new AtomicLong();
  private final ScheduledExecutorService watchdog =
      Executors.newSingleThreadScheduledExecutor(
          task -> {
            Thread thread = new Thread(task, "hostile-input-watchdog");
            thread.setDaemon(true);
            return thread;
          });

  /**
   * @param parser names the parser in failures
   * @param position what each problem line must contain to say where (found anywhere in the line)
   */
  public CleanOutcome(String parser, Pattern position) {
    this.parser = parser;
    this.position = position;
  }

  /** How many inputs were checked. */
  public int inputs() {
    return inputs.get();
  }

  /**
   * Reads {@code input} with {@code read} (which returns the problem lines it refused with, or
   * none) and fails, naming the input, unless the outcome is clean.
   */
  public void check(String input, Callable<List<String>> read) {
    inputs.incrementAndGet();
    Thread reader = Thread.currentThread();
    long cpuStart = THREADS.getCurrentThreadCpuTime();
    long start = System.nanoTime();
    AtomicBoolean overCpu = new AtomicBoolean();
    AtomicBoolean named = new AtomicBoolean();
    ScheduledFuture<?> watch =
        watchdog.scheduleAtFixedRate(
            () -> {
              if (THREADS.getThreadCpuTime(reader.getId()) - cpuStart > BOUND.toNanos()
                  && overCpu.compareAndSet(false, true)) {
                reader.interrupt();
              }
              if (System.nanoTime() - start > WALL.toNanos() && named.compareAndSet(false, true)) {
                System.err.println(
                    parser + " still reading after " + WALL.toSeconds() + " s: " + excerpt(input));
              }
            },
            POLL_MILLIS,
            POLL_MILLIS,
            TimeUnit.MILLISECONDS);
    List<String> problems;
    Throwable thrown = null;
    try {
      problems = read.call();
    } catch (
        Throwable t) { // OutOfMemoryError and StackOverflowError included: they are the finding
      problems = List.of();
      thrown = t;
    } finally {
      watch.cancel(false);
      long cpu = THREADS.getCurrentThreadCpuTime() - cpuStart;
      cpuNanos.addAndGet(cpu);
      wallNanos.addAndGet(System.nanoTime() - start);
      Thread.interrupted(); // a late interrupt from the watchdog is not the next input's
      if (overCpu.get() || cpu > BOUND.toNanos()) {
        throw new AssertionError(
            parser + " spent more than " + BOUND.toSeconds() + " s of CPU on " + excerpt(input));
      }
    }
    if (thrown != null) {
      throw new AssertionError(
          parser + " threw " + thrown + " on " + excerpt(input) + "\n" + trace(thrown), thrown);
    }
    for (String line : problems) {
      if (line == null || line.isBlank()) {
        throw new AssertionError(parser + " refused with an empty problem on " + excerpt(input));
      }
      if (line.indexOf('\n') >= 0 || line.indexOf('\r') >= 0) {
        throw new AssertionError(
            parser
                + " gave a problem of more than one line: "
                + ControlChars.quote(line)
                + " on "
                + excerpt(input));
      }
      if (!position.matcher(line).find()) {
        throw new AssertionError(
            parser
                + " gave a problem without its position ("
                + position
                + "): "
                + ControlChars.quote(line)
                + " on "
                + excerpt(input));
      }
      if (!ControlChars.quote(line).equals(line)) {
        throw new AssertionError(
            parser
                + " echoed a control character: "
                + ControlChars.quote(line)
                + " on "
                + excerpt(input));
      }
    }
  }

  /**
   * {@code PARSER: N inputs, X s of CPU in the parser, Y s in all}: what a test's report prints.
   */
  public String summary() {
    return String.format(
        Locale.ROOT,
        "%s: %d inputs, %.1f s of CPU in the parser, %.1f s on the clock",
        parser,
        inputs.get(),
        cpuNanos.get() / 1e9,
        wallNanos.get() / 1e9);
  }

  @Override
  public void close() {
    watchdog.shutdownNow();
  }

  private static String excerpt(String input) {
    String cut = input.length() > EXCERPT ? input.substring(0, EXCERPT) + "..." : input;
    return "input of " + input.length() + " chars: " + ControlChars.quote(cut);
  }

  private static String trace(Throwable t) {
    StringWriter out = new StringWriter();
    t.printStackTrace(new PrintWriter(out));
    String s = out.toString();
    return s.length() > 4000 ? s.substring(0, 4000) : s;
  }
}
