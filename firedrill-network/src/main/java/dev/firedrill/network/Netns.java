package dev.firedrill.network;

import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.FaultRefusedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where a network fault acts: a named network namespace ({@code ip netns exec NAME ...}), or, with
 * no name, the host's own namespace, which the blast radius must allow.
 */
public record Netns(Optional<String> name) {

  /** What {@code ip netns add} accepts and a path under /run/netns can hold. */
  public static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  public Netns {
    name = name == null ? Optional.empty() : name;
  }

  /** {@code argv} run inside the namespace. */
  public List<String> exec(List<String> argv) {
    if (name.isEmpty()) {
      return List.copyOf(argv);
    }
    List<String> wrapped = new ArrayList<>(List.of("ip", "netns", "exec", name.get()));
    wrapped.addAll(argv);
    return List.copyOf(wrapped);
  }

  /** {@code netns n1}, or {@code the host's network namespace}. */
  public String words() {
    return name.map(n -> "netns " + n).orElse("the host's network namespace");
  }

  /** The file's refusal: the host's namespace without {@code allow_host_network}. */
  public void checkStatic(String kind, BlastRadius blast) throws FaultRefusedException {
    if (name.isEmpty() && !blast.allowHostNetwork()) {
      throw new FaultRefusedException(
          kind
              + ": no namespace, so the fault would act on the host's own network; expected"
              + " namespace: NAME (a network namespace, see ip netns list), or"
              + " blast_radius.allow_host_network: true");
    }
  }

  /** Whether the named namespace exists now ({@code ip netns list}); the host's always does. */
  public boolean exists() throws FaultException {
    if (name.isEmpty()) {
      return true;
    }
    String listed = Commands.require(List.of("ip", "netns", "list"));
    // Each line is "NAME" or "NAME (id: 3)".
    return listed.lines().map(l -> l.strip().split("\\s+")[0]).anyMatch(name.get()::equals);
  }

  /** Refuses, before anything runs, a namespace that does not exist. */
  public void checkLive(String kind) throws FaultException {
    if (!exists()) {
      throw new FaultRefusedException(
          kind
              + ": network namespace "
              + name.get()
              + " does not exist (ip netns list does not show it); expected namespace to name an"
              + " existing one");
    }
  }

  /** Refuses, before anything runs, a device the namespace lacks. */
  public void checkDevice(String kind, String device) throws FaultException {
    Commands.Result link = Commands.run(exec(List.of("ip", "link", "show", "dev", device)));
    if (!link.ok()) {
      throw new FaultRefusedException(
          kind
              + ": device "
              + device
              + " is not in "
              + words()
              + " ("
              + link.firstLine()
              + "); expected device to name one of its links (ip link show)");
    }
  }
}
