package dev.firedrill.fault;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.Node;
import dev.firedrill.time.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** command: any injector, started, stopped and checked by argument lists, never a shell. */
public final class CommandKind implements FaultKind<FaultSpec.Command> {

  /** A command that takes longer than this is a hung injector, not a slow one. */
  static final Duration MAX_TIMEOUT = Duration.ofMinutes(10);

  @Override
  public String name() {
    return "command";
  }

  @Override
  public Class<FaultSpec.Command> specType() {
    return FaultSpec.Command.class;
  }

  @Override
  public List<String> keys() {
    return List.of("inject", "revert", "verify", "state", "timeout");
  }

  @Override
  public FaultSpec.Command read(Node entry, Optional<Duration> ttl) {
    List<String> inject =
        arguments(entry, "inject", "the program and arguments that start the fault");
    List<String> revert =
        arguments(entry, "revert", "the program and arguments that undo the fault");
    List<String> verify =
        arguments(
            entry, "verify", "the program and arguments that exit 0 when nothing of it remains");
    Boolean state = entry.get("state").bool();
    Duration timeout = entry.get("timeout").duration(true);
    if (timeout != null && timeout.compareTo(MAX_TIMEOUT) > 0) {
      entry.get("timeout").fail("expected a timeout of at most 10m");
      timeout = null;
    }
    return entry.clean()
        ? new FaultSpec.Command(inject, revert, verify, state != null && state, timeout, ttl)
        : null;
  }

  /** An argument list; a single string is refused, since splitting it would need a shell. */
  private static List<String> arguments(Node entry, String key, String what) {
    Node node = entry.get(key).required("command needs " + key + ": " + what + ", as a list");
    if (!node.present()) {
      return null;
    }
    if (node.tree().isTextual()) {
      return node.fail(
          "expected an argument list such as [/usr/bin/aws, fis, start-experiment] (never a"
              + " shell command line)");
    }
    List<Node> items = node.list();
    if (items == null) {
      return null;
    }
    if (items.isEmpty()) {
      return node.fail("expected an argument list with at least the program");
    }
    List<String> arguments = new ArrayList<>();
    for (Node item : items) {
      String text = item.text();
      if (text != null) {
        arguments.add(text);
      }
    }
    if (arguments.get(0).isBlank()) {
      items.get(0).fail("expected the program to run");
    }
    return arguments;
  }

  @Override
  public void write(FaultSpec.Command spec, ObjectNode node) {
    write(node.putArray("inject"), spec.inject());
    write(node.putArray("revert"), spec.revert());
    write(node.putArray("verify"), spec.verify());
    if (spec.state()) {
      node.put("state", true);
    }
    node.put("timeout", Durations.format(spec.timeout()));
  }

  private static void write(ArrayNode array, List<String> arguments) {
    arguments.forEach(array::add);
  }

  @Override
  public void check(FaultSpec.Command spec, BlastRadius blast) throws FaultRefusedException {
    if (spec.ttl().isPresent() && spec.timeout().compareTo(spec.ttl().get()) >= 0) {
      throw new FaultRefusedException(
          "command: timeout "
              + Durations.format(spec.timeout())
              + " is not shorter than the ttl "
              + Durations.format(spec.ttl().get())
              + "; expected a command to end well inside the fault's life");
    }
  }

  @Override
  public Fault create(FaultSpec.Command spec, FaultContext context, int index) {
    return new CommandFault(spec, context);
  }

  @Override
  public Fault restore(FaultSpec.Command spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    return CommandFault.restore(spec, context, state);
  }
}
