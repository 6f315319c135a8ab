package dev.firedrill.network.nft;

import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultChecks;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.FaultRefusedException;
import dev.firedrill.fault.TtlEnforcer;
import dev.firedrill.fault.Verification;
import dev.firedrill.network.Commands;
import dev.firedrill.network.NetworkFields;
import dev.firedrill.time.Durations;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One nftables table per fault, created in one nft transaction: a set of the targets whose elements
 * carry {@code timeout <ttl>}, and rules matching the set. The kernel drops the elements at the
 * ttl, so the rules match nothing once it has passed even when firedrill was SIGKILLed; the empty
 * table is left for the rollback (or cleanup), which deletes it and checks {@code nft list tables}.
 */
final class NftablesFault implements Fault {

  static final String SET = "targets";
  private static final Pattern TABLE = Pattern.compile("firedrill_[0-9a-f]{8}");
  private static final SecureRandom RANDOM = new SecureRandom();

  private final PacketFilterSpec spec;
  private final FaultContext context;
  private final String table;
  private boolean deleted;

  NftablesFault(PacketFilterSpec spec, FaultContext context, String table) {
    this.spec = spec;
    this.context = context;
    this.table = table;
  }

  /** A fresh name per run, so a table a killed run left is never taken for this one's. */
  static String newTableName() {
    byte[] bytes = new byte[4];
    RANDOM.nextBytes(bytes);
    return "firedrill_" + HexFormat.of().formatHex(bytes);
  }

  static NftablesFault restore(
      PacketFilterSpec spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    Object table = state.get("table");
    if (!(table instanceof String name) || !TABLE.matcher(name).matches()) {
      throw new FaultException(
          spec.kind() + ": the journal's state has no table named like firedrill_0123abcd");
    }
    return new NftablesFault(spec, context, name);
  }

  String table() {
    return table;
  }

  @Override
  public PacketFilterSpec spec() {
    return spec;
  }

  /** The nft transaction, one command a line; {@code create table} fails if the table exists. */
  List<String> script(Duration ttl) {
    String family = "inet " + table;
    List<String> lines = new ArrayList<>();
    lines.add("create table " + family);
    lines.add("add set " + family + " " + SET + " { type ipv4_addr; flags interval,timeout; }");
    if (spec.direction().egress() || spec.effect() == PacketFilterSpec.Effect.REFUSE) {
      lines.add(chain(family, "output"));
      rules(true).forEach(rule -> lines.add("add rule " + family + " output " + rule));
    }
    if (spec.direction().ingress() && spec.effect() != PacketFilterSpec.Effect.REFUSE) {
      lines.add(chain(family, "input"));
      rules(false).forEach(rule -> lines.add("add rule " + family + " input " + rule));
    }
    String timeout = " timeout " + NetworkFields.time(ttl);
    lines.add(
        "add element "
            + family
            + " "
            + SET
            + " { "
            + String.join(", ", spec.to().stream().map(a -> a + timeout).toList())
            + " }");
    return lines;
  }

  private static String chain(String family, String hook) {
    return "add chain "
        + family
        + " "
        + hook
        + " { type filter hook "
        + hook
        + " priority filter; policy accept; }";
  }

  /** The rules of one hook: out, the targets are the destination; in, the source. */
  private List<String> rules(boolean out) {
    String match = (out ? "ip daddr @" : "ip saddr @") + SET;
    String ports =
        spec.ports().isEmpty()
            ? ""
            : " th "
                + (out ? "dport" : "sport")
                + " { "
                + String.join(", ", spec.ports().stream().map(String::valueOf).toList())
                + " }";
    return switch (spec.effect()) {
      case PARTITION -> List.of(match + protocol(spec.protocol()) + ports + " drop");
      case LOSS ->
          List.of(
              match
                  + protocol(spec.protocol())
                  + ports
                  + " numgen random mod 100 < "
                  + spec.percent()
                  + " drop");
      case REFUSE -> {
        List<String> rules = new ArrayList<>();
        if (spec.protocol() != Protocol.UDP) {
          rules.add(match + " meta l4proto tcp" + ports + " reject with tcp reset");
        }
        if (spec.protocol() == Protocol.UDP) {
          rules.add(match + " meta l4proto udp" + ports + " reject");
        } else if (spec.protocol() == Protocol.ALL) {
          rules.add(
              match
                  + (ports.isEmpty() ? "" : " meta l4proto { udp, sctp, dccp }" + ports)
                  + " reject");
        }
        yield rules;
      }
    };
  }

  /** The protocol match; with ports and every protocol, those that have ports. */
  private String protocol(Protocol protocol) {
    return switch (protocol) {
      case TCP -> " meta l4proto tcp";
      case UDP -> " meta l4proto udp";
      case ALL -> spec.ports().isEmpty() ? "" : " meta l4proto { tcp, udp, sctp, dccp }";
    };
  }

  /** The command that creates the table: the script is one argument, one nft transaction. */
  List<String> createCommand(Duration ttl) {
    return spec.netns().exec(List.of("nft", String.join("\n", script(ttl))));
  }

  List<String> deleteCommand() {
    return spec.netns().exec(List.of("nft", "delete", "table", "inet", table));
  }

  List<String> listCommand() {
    return spec.netns().exec(List.of("nft", "list", "tables"));
  }

  @Override
  public List<String> plan() throws FaultException {
    Duration ttl = FaultChecks.check(spec, context.blastRadius(), context.methodDuration());
    spec.netns().checkLive(spec.kind());
    refuseExisting();
    List<String> lines = new ArrayList<>();
    lines.add("in " + spec.netns().words() + ", nftables table inet " + table + " (one per run):");
    List<String> create = createCommand(ttl);
    lines.add(
        "run: "
            + Commands.shell(create.subList(0, create.size() - 1))
            + " SCRIPT, one argument (one nft transaction) of these lines:");
    script(ttl).forEach(line -> lines.add("  " + line));
    lines.add(
        "ttl: every element of set "
            + SET
            + " carries timeout "
            + Durations.format(ttl)
            + ", so the kernel removes the targets at the ttl and the rules match nothing, even if"
            + " firedrill is killed (the empty table stays until rollback or cleanup)");
    lines.add(
        "rollback: "
            + Commands.shell(deleteCommand())
            + "; verified: "
            + Commands.shell(listCommand())
            + " no longer lists it");
    return lines;
  }

  private boolean tableExists() throws FaultException {
    String listed = Commands.require(listCommand());
    return listed.lines().map(String::strip).anyMatch(("table inet " + table)::equals);
  }

  private void refuseExisting() throws FaultException {
    if (tableExists()) {
      throw new FaultRefusedException(
          spec.kind()
              + ": nftables table inet "
              + table
              + " already exists in "
              + spec.netns().words()
              + "; expected none (delete it with: "
              + Commands.shell(deleteCommand())
              + ")");
    }
  }

  @Override
  public void inject() throws FaultException {
    Duration ttl = FaultChecks.check(spec, context.blastRadius(), context.methodDuration());
    spec.netns().checkLive(spec.kind());
    refuseExisting();
    Commands.require(createCommand(ttl));
  }

  @Override
  public void revert() throws FaultException {
    if (!spec.netns().exists() || !tableExists()) {
      return;
    }
    Commands.require(deleteCommand());
    deleted = true;
  }

  @Override
  public Verification verify() {
    String where = spec.netns().words();
    try {
      if (!spec.netns().exists()) {
        return Verification.reverted(where + " is gone, and its nftables tables with it");
      }
      if (tableExists()) {
        return Verification.remaining(
            where
                + " still lists nftables table inet "
                + table
                + "; run: "
                + manualRevertCommand());
      }
    } catch (FaultException e) {
      return Verification.remaining("cannot list the nftables tables: " + e.getMessage());
    }
    return Verification.reverted(
        deleted
            ? "deleted nftables table "
                + table
                + " in "
                + where
                + "; verified: the namespace lists no such table"
            : where + " lists no nftables table " + table);
  }

  @Override
  public String manualRevertCommand() {
    return Commands.shell(deleteCommand());
  }

  @Override
  public Map<String, Object> state() {
    return Map.of("table", table);
  }

  /** The table's name is drawn before the transaction: cleanup deletes it if it was created. */
  @Override
  public Optional<Map<String, Object>> stateBeforeInjection() {
    return Optional.of(state());
  }

  @Override
  public TtlEnforcer ttlEnforcer() {
    return TtlEnforcer.KERNEL;
  }

  @Override
  public List<String> selected() {
    return spec.to();
  }
}
