package dev.firedrill.fault;

import static dev.firedrill.time.Durations.format;

import dev.firedrill.experiment.FaultSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A fault some other tool injects, by command: runs {@code inject}, keeps its stdout as the state
 * when asked, and undoes it with {@code revert}, checked by {@code verify}. Nothing ends such a
 * fault by itself, so the watchdog holds its ttl by running {@code revert}.
 */
public final class CommandFault implements Fault {

  /** The environment variable revert and verify get the state in. */
  public static final String STATE_VARIABLE = "FIREDRILL_FAULT_STATE";

  /** The longest state kept: an id or a short JSON document, never a log. */
  static final int MAX_STATE = 4096;

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*state\\s*}}");

  private final FaultSpec.Command spec;
  private final FaultContext context;
  private final CommandRunner runner;
  private final boolean restored;
  private boolean started;
  private String output;

  /** What the last revert ran, for the rollback line; null before one. */
  private String reverted;

  private CommandFault(FaultSpec.Command spec, FaultContext context, boolean restored) {
    this.spec = spec;
    this.context = context;
    this.runner = new CommandRunner(context.environment());
    this.restored = restored;
    // A restored fault may have started even where its state says nothing: its revert runs.
    this.started = restored;
  }

  CommandFault(FaultSpec.Command spec, FaultContext context) {
    this(spec, context, false);
  }

  static CommandFault restore(
      FaultSpec.Command spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    CommandFault fault = new CommandFault(spec, context, true);
    if (state.get("output") != null) {
      fault.output = StateValues.text(state.get("output"), "output");
    }
    return fault;
  }

  @Override
  public FaultSpec.Command spec() {
    return spec;
  }

  @Override
  public List<String> plan() throws FaultException {
    Duration ttl = FaultChecks.check(spec, context.blastRadius(), context.methodDuration());
    List<String> actions = new ArrayList<>();
    actions.add(
        "run "
            + shown(spec.inject())
            + " (timeout "
            + format(spec.timeout())
            + (spec.state()
                ? "; its stdout is the state, for " + STATE_VARIABLE + " and {{ state }}"
                : "")
            + ")");
    actions.add(
        "hold in the watchdog: run "
            + shown(spec.revert())
            + " at the ttl of "
            + format(ttl)
            + ", or when firedrill stops renewing its lease");
    actions.add("verify the revert: " + shown(spec.verify()) + " exits 0");
    return List.copyOf(actions);
  }

  /** An argument list as JSON writes it: exactly what runs, quotes and all. */
  static String shown(List<String> arguments) {
    return arguments.stream()
        .map(argument -> '"' + argument.replace("\\", "\\\\").replace("\"", "\\\"") + '"')
        .collect(Collectors.joining(", ", "[", "]"));
  }

  @Override
  public synchronized void inject() throws FaultException {
    if (restored || started) {
      throw new FaultException(
          "command: already injected"
              + (restored ? " (restored from the journal)" : "")
              + "; expected one inject per fault");
    }
    FaultChecks.check(spec, context.blastRadius(), context.methodDuration());
    started = true;
    CommandRunner.Result result = runner.run(spec.inject(), Map.of(), spec.timeout());
    if (spec.state()) {
      String printed = result.stdout().strip();
      if (printed.length() > MAX_STATE) {
        throw new FaultException(
            "command: inject printed "
                + printed.length()
                + " characters; expected a state of at most "
                + MAX_STATE
                + " (an id, not a log)");
      }
      output = printed;
    }
    if (!result.ok()) {
      throw new FaultException(
          "command: inject " + shown(spec.inject()) + " " + result.describe(spec.timeout()));
    }
  }

  @Override
  public synchronized void revert() throws FaultException {
    if (!started) {
      return;
    }
    List<String> arguments = withState(spec.revert());
    CommandRunner.Result result = runner.run(arguments, extra(), spec.timeout());
    if (!result.ok()) {
      throw new FaultException(
          "command: revert " + shown(arguments) + " " + result.describe(spec.timeout()));
    }
    reverted = "ran " + shown(arguments) + " (exit 0)";
  }

  @Override
  public synchronized Verification verify() {
    if (!started) {
      return Verification.reverted("nothing to undo: inject never ran");
    }
    List<String> arguments;
    CommandRunner.Result result;
    try {
      arguments = withState(spec.verify());
      result = runner.run(arguments, extra(), spec.timeout());
    } catch (FaultException e) {
      return Verification.remaining(e.getMessage());
    }
    if (result.ok()) {
      return Verification.reverted(
          (reverted == null ? "" : reverted + "; ") + "verified: " + shown(arguments) + " exits 0");
    }
    return Verification.remaining(
        "verify " + shown(arguments) + " " + result.describe(spec.timeout()));
  }

  /** {@code {{ state }}} in an argument becomes the state; refused when there is none. */
  private List<String> withState(List<String> arguments) throws FaultException {
    if (!spec.state()) {
      return arguments;
    }
    if (output == null) {
      throw new FaultException(
          "command: no state was recorded (inject did not finish), so "
              + shown(arguments)
              + " cannot be given {{ state }}; expected the inject command's stdout");
    }
    return arguments.stream()
        .map(argument -> PLACEHOLDER.matcher(argument).replaceAll(Matcher.quoteReplacement(output)))
        .toList();
  }

  private Map<String, String> extra() {
    return spec.state() && output != null ? Map.of(STATE_VARIABLE, output) : Map.of();
  }

  @Override
  public synchronized String manualRevertCommand() {
    List<String> arguments;
    try {
      arguments = withState(spec.revert());
    } catch (FaultException e) {
      return "# the state was not recorded: run " + quoted(spec.revert()) + " with it by hand";
    }
    String prefix =
        spec.state() && output != null ? STATE_VARIABLE + "=" + quote(output) + " " : "";
    return prefix + quoted(arguments);
  }

  private static String quoted(List<String> arguments) {
    return arguments.stream().map(CommandFault::quote).collect(Collectors.joining(" "));
  }

  /** Quoted for a POSIX shell, for a human to paste: nothing here runs through one. */
  private static String quote(String argument) {
    return argument.matches("[A-Za-z0-9_./:=@%+-]+")
        ? argument
        : "'" + argument.replace("'", "'\\''") + "'";
  }

  @Override
  public synchronized Map<String, Object> state() {
    Map<String, Object> state = new LinkedHashMap<>();
    if (output != null) {
      state.put("output", output);
    }
    return state;
  }

  /**
   * A command without {@code state: true} reverts without one: cleanup can run its revert after a
   * kill mid-inject. With {@code state: true} the state is the inject's output, unknown before.
   */
  @Override
  public Optional<Map<String, Object>> stateBeforeInjection() {
    return spec.state() ? Optional.empty() : Optional.of(Map.of());
  }

  @Override
  public TtlEnforcer ttlEnforcer() {
    return TtlEnforcer.WATCHDOG;
  }
}
