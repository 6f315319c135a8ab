package dev.firedrill.network.tc;

import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultChecks;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.FaultRefusedException;
import dev.firedrill.fault.TtlEnforcer;
import dev.firedrill.fault.Verification;
import dev.firedrill.network.Commands;
import dev.firedrill.network.Netns;
import dev.firedrill.time.Durations;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A root qdisc with a handle of firedrill's own, on a device whose root qdisc was the default: a
 * configured one (another tool's shaping) is refused, never replaced. The revert deletes the root
 * qdisc only while it is still firedrill's, and verifies that the default (handle 0:) is back.
 */
final class QdiscFault implements Fault {

  private static final Pattern HANDLE = Pattern.compile("f[0-9a-f]{3}:");
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Adding netem to a throwaway namespace's loopback says whether the kernel has sch_netem. */
  static final List<String> NETEM_PROBE =
      List.of(
          "unshare", "--net", "tc", "qdisc", "add", "dev", "lo", "root", "netem", "delay", "1ms");

  private final QdiscSpec spec;
  private final FaultContext context;
  private final String handle;
  private String deleted;

  QdiscFault(QdiscSpec spec, FaultContext context, String handle) {
    this.spec = spec;
    this.context = context;
    this.handle = handle;
  }

  /** A handle of firedrill's range (f000: to ffff:), fresh per run, kept in the journal. */
  static String newHandle() {
    return "f" + String.format("%03x", RANDOM.nextInt(0x1000)) + ":";
  }

  static QdiscFault restore(QdiscSpec spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    Object handle = state.get("handle");
    if (!(handle instanceof String text) || !HANDLE.matcher(text).matches()) {
      throw new FaultException(
          spec.kind() + ": the journal's state has no qdisc handle such as f1a2:");
    }
    return new QdiscFault(spec, context, text);
  }

  @Override
  public QdiscSpec spec() {
    return spec;
  }

  List<String> addCommand() {
    List<String> argv =
        new ArrayList<>(
            List.of(
                "tc",
                "qdisc",
                "add",
                "dev",
                spec.device(),
                "root",
                "handle",
                handle,
                spec.shape().qdisc()));
    argv.addAll(spec.shape().options());
    return spec.netns().exec(argv);
  }

  List<String> deleteCommand() {
    return spec.netns().exec(List.of("tc", "qdisc", "del", "dev", spec.device(), "root"));
  }

  @Override
  public List<String> plan() throws FaultException {
    Duration ttl = FaultChecks.check(spec, context.blastRadius(), context.methodDuration());
    checkLive();
    if (spec.shape() instanceof QdiscSpec.Netem) {
      requireNetem();
    }
    List<String> lines = new ArrayList<>();
    lines.add("on dev " + spec.device() + " in " + spec.netns().words() + " (egress):");
    lines.add("run: " + Commands.shell(addCommand()));
    lines.add(
        "ttl: a qdisc has none of its own; the watchdog deletes it at "
            + Durations.format(ttl)
            + ", or when firedrill stops renewing its lease");
    lines.add(
        "rollback: "
            + Commands.shell(deleteCommand())
            + "; verified: "
            + Commands.shell(RootQdisc.showCommand(spec.netns(), spec.device()))
            + " shows the default root qdisc (handle 0:) again");
    return lines;
  }

  /** Namespace and device exist, and the device's root qdisc is the default. */
  private void checkLive() throws FaultException {
    Netns netns = spec.netns();
    netns.checkLive(spec.kind());
    netns.checkDevice(spec.kind(), spec.device());
    RootQdisc root = RootQdisc.read(netns, spec.device());
    if (!root.isDefault()) {
      throw new FaultRefusedException(
          spec.kind()
              + ": dev "
              + spec.device()
              + " in "
              + netns.words()
              + " already has a configured root qdisc ("
              + root.kind()
              + ", handle "
              + root.handle()
              + "); expected the default (handle 0:), so that firedrill replaces nobody's shaping");
    }
  }

  /** Refuses network-delay where the kernel has no sch_netem (tc's "qdisc kind is unknown"). */
  private void requireNetem() throws FaultException {
    Commands.Result probe = Commands.run(NETEM_PROBE);
    if (!probe.ok()) {
      throw new FaultRefusedException(
          spec.kind()
              + ": this kernel cannot run netem: "
              + Commands.shell(NETEM_PROBE)
              + " (a throwaway namespace) answered \""
              + probe.firstLine()
              + "\""
              + (probe.firstLine().contains("unknown")
                  ? "; the kernel lacks sch_netem (CONFIG_NET_SCH_NETEM), which no package adds"
                  : ""));
    }
  }

  @Override
  public void inject() throws FaultException {
    FaultChecks.check(spec, context.blastRadius(), context.methodDuration());
    checkLive();
    Commands.require(addCommand());
  }

  /** Whether the namespace and the device are still there: with either gone, so is the qdisc. */
  private boolean deviceThere() throws FaultException {
    return spec.netns().exists()
        && Commands.run(spec.netns().exec(List.of("ip", "link", "show", "dev", spec.device())))
            .ok();
  }

  @Override
  public void revert() throws FaultException {
    if (!deviceThere()) {
      return;
    }
    RootQdisc root = RootQdisc.read(spec.netns(), spec.device());
    if (handle.equals(root.handle())) {
      Commands.require(deleteCommand());
      deleted = root.kind();
    }
  }

  @Override
  public Verification verify() {
    String where = "dev " + spec.device() + " in " + spec.netns().words();
    RootQdisc root;
    try {
      if (!deviceThere()) {
        return Verification.reverted(where + " is gone, and its qdiscs with it");
      }
      root = RootQdisc.read(spec.netns(), spec.device());
    } catch (FaultException e) {
      return Verification.remaining("cannot read the root qdisc: " + e.getMessage());
    }
    if (handle.equals(root.handle())) {
      return Verification.remaining(
          where
              + " still has firedrill's root qdisc "
              + root.kind()
              + " (handle "
              + handle
              + "); run: "
              + manualRevertCommand());
    }
    if (!root.isDefault()) {
      return Verification.reverted(
          where
              + " has no qdisc of firedrill's; its root qdisc is now "
              + root.kind()
              + " (handle "
              + root.handle()
              + "), someone else's, left alone");
    }
    return Verification.reverted(
        deleted != null
            ? "deleted root qdisc "
                + deleted
                + " (handle "
                + handle
                + ") on "
                + where
                + "; verified: tc qdisc show lists the default root qdisc ("
                + root.kind()
                + ", handle 0:) again"
            : where + " has the default root qdisc (" + root.kind() + ", handle 0:)");
  }

  @Override
  public String manualRevertCommand() {
    return Commands.shell(deleteCommand());
  }

  @Override
  public Map<String, Object> state() {
    return Map.of("handle", handle);
  }

  /**
   * The handle is drawn before {@code tc qdisc add}: cleanup after a kill inside the injection
   * deletes the root qdisc only if it carries that handle (the watchdog holds the same state).
   */
  @Override
  public Optional<Map<String, Object>> stateBeforeInjection() {
    return Optional.of(state());
  }

  @Override
  public TtlEnforcer ttlEnforcer() {
    return TtlEnforcer.WATCHDOG;
  }
}
