package dev.firedrill.fault;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.Node;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** process-kill: signals the processes whose command line contains {@code match}. */
public final class ProcessKillKind implements FaultKind<FaultSpec.ProcessKill> {

  /** A match shorter than this could hit half the host. */
  static final int MIN_MATCH = 4;

  private static final List<String> SIGNALS =
      List.of("KILL", "TERM", "INT", "HUP", "QUIT", "STOP", "USR1", "USR2");

  @Override
  public String name() {
    return "process-kill";
  }

  @Override
  public Class<FaultSpec.ProcessKill> specType() {
    return FaultSpec.ProcessKill.class;
  }

  @Override
  public List<String> keys() {
    return List.of("match", "signal", "share", "percent");
  }

  @Override
  public FaultSpec.ProcessKill read(Node entry, Optional<Duration> ttl) {
    String match =
        entry
            .get("match")
            .required(
                "process-kill needs match: text to look for in the command line of the processes")
            .text();
    String signal = entry.get("signal").choice("signal", SIGNALS, ProcessKillKind::signal);
    Double share = FaultFields.share(entry, "processes");
    return entry.clean()
        ? new FaultSpec.ProcessKill(match, signal, Optional.ofNullable(share), ttl)
        : null;
  }

  /** {@code sigterm}, {@code SIGTERM} and {@code term} are all {@code TERM}. */
  private static String signal(String text) {
    String upper = text.toUpperCase(Locale.ROOT);
    return upper.startsWith("SIG") ? upper.substring(3) : upper;
  }

  @Override
  public void write(FaultSpec.ProcessKill spec, ObjectNode node) {
    node.put("match", spec.match());
    node.put("signal", spec.signal());
    spec.share().ifPresent(share -> node.put("share", share));
  }

  @Override
  public void check(FaultSpec.ProcessKill spec, BlastRadius blast) throws FaultRefusedException {
    String match = spec.match() == null ? "" : spec.match();
    if (match.strip().length() < MIN_MATCH) {
      throw new FaultRefusedException(
          "process-kill: match \""
              + match
              + "\" is "
              + match.strip().length()
              + " characters; expected at least "
              + MIN_MATCH
              + " so it cannot hit half the host");
    }
  }

  @Override
  public Fault create(FaultSpec.ProcessKill spec, FaultContext context, int index) {
    return new ProcessKillFault(spec, context);
  }

  @Override
  public Fault restore(FaultSpec.ProcessKill spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    return ProcessKillFault.restore(spec, context, state);
  }
}
