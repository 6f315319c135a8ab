package dev.firedrill.network.nft;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.Node;
import dev.firedrill.experiment.Numbers;
import dev.firedrill.experiment.Shares;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.FaultKind;
import dev.firedrill.fault.FaultRefusedException;
import dev.firedrill.network.Netns;
import dev.firedrill.network.NetworkFields;
import dev.firedrill.network.nft.PacketFilterSpec.Effect;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The nftables kinds: network-partition, network-refuse and network-loss share {@link
 * PacketFilterSpec} and everything but their verdict; each is a class below, listed on its own in
 * META-INF/services.
 */
public abstract sealed class PacketFilterKinds implements FaultKind<PacketFilterSpec> {

  private final Effect effect;
  private final List<String> keys;

  private PacketFilterKinds(Effect effect, String... keys) {
    this.effect = effect;
    this.keys = List.of(keys);
  }

  @Override
  public final String name() {
    return effect.kind();
  }

  @Override
  public final Class<PacketFilterSpec> specType() {
    return PacketFilterSpec.class;
  }

  @Override
  public final List<String> keys() {
    return keys;
  }

  /** The protocol when the entry names none. */
  Protocol defaultProtocol() {
    return Protocol.ALL;
  }

  @Override
  public final PacketFilterSpec read(Node entry, Optional<Duration> ttl) {
    Netns netns = NetworkFields.namespace(entry);
    List<String> to = addresses(entry.get("to"));
    List<Integer> ports = ports(entry.get("ports"));
    String protocol =
        entry
            .get("protocol")
            .choice("protocol", Protocol.NAMES, text -> text.toLowerCase(Locale.ROOT));
    String direction =
        keys.contains("direction")
            ? entry
                .get("direction")
                .choice("direction", Direction.NAMES, text -> text.toLowerCase(Locale.ROOT))
            : null;
    Double share = keys.contains("share") ? share(entry) : null;
    if (!entry.clean()) {
      return null;
    }
    return new PacketFilterSpec(
        effect,
        netns,
        to,
        ports,
        protocol == null ? defaultProtocol() : Protocol.valueOf(protocol.toUpperCase(Locale.ROOT)),
        direction == null
            ? (keys.contains("direction") ? Direction.BOTH : Direction.EGRESS)
            : Direction.valueOf(direction.toUpperCase(Locale.ROOT)),
        Optional.ofNullable(share),
        ttl);
  }

  /** A list of IPv4 addresses or networks (one may stand alone), none overlapping another. */
  private static List<String> addresses(Node node) {
    node.required("expected the addresses to act on, such as [10.0.0.2, 10.1.0.0/16]");
    if (!node.present()) {
      return List.of();
    }
    List<Node> items = node.tree().isTextual() ? List.of(node) : node.list();
    if (items == null) {
      return List.of();
    }
    if (items.isEmpty()) {
      node.problem("expected at least one address, such as [10.0.0.2]");
    }
    List<Ipv4Prefix> prefixes = new ArrayList<>();
    for (Node item : items) {
      String text = item.text();
      if (text == null) {
        continue;
      }
      Optional<Ipv4Prefix> prefix = Ipv4Prefix.parse(text);
      if (prefix.isEmpty()) {
        item.fail(Ipv4Prefix.EXPECTED + " (no host bits after the prefix length)");
      } else {
        prefixes.add(prefix.get());
      }
    }
    Ipv4Prefix.firstOverlap(prefixes)
        .ifPresent(
            p -> node.problem("expected addresses that do not overlap; " + p.text() + " does"));
    return prefixes.stream().map(Ipv4Prefix::text).toList();
  }

  private static List<Integer> ports(Node node) {
    List<Node> items = node.present() && node.tree().isNumber() ? List.of(node) : node.list();
    List<Integer> ports = new ArrayList<>();
    if (items == null) {
      return ports;
    }
    for (Node item : items) {
      Integer port = item.integer(1);
      if (port != null && port > 65535) {
        item.fail("expected a port from 1 to 65535");
      } else if (port != null) {
        ports.add(port);
      }
    }
    return ports;
  }

  /** network-loss's share, the project's way (0.2 or "20%"), in whole percent for nft. */
  private static Double share(Node entry) {
    Node node = entry.get("share");
    node.required(
        "network-loss needs share: the share of the packets to drop, such as 0.2 or \"20%\"");
    Double share = node.share();
    if (share != null && Math.abs(share * 100 - Math.rint(share * 100)) > 1e-9) {
      return node.fail(
          "expected a share in whole percent (nft draws a number in 0..99), such as 0.2");
    }
    return share;
  }

  @Override
  public final void write(PacketFilterSpec spec, ObjectNode node) {
    spec.netns().name().ifPresent(name -> node.put("namespace", name));
    ArrayNode to = node.putArray("to");
    spec.to().forEach(to::add);
    if (!spec.ports().isEmpty()) {
      ArrayNode ports = node.putArray("ports");
      spec.ports().forEach(ports::add);
    }
    node.put("protocol", spec.protocol().text());
    if (keys.contains("direction")) {
      node.put("direction", spec.direction().text());
    }
    spec.share().ifPresent(share -> node.put("share", share));
  }

  @Override
  public final void check(PacketFilterSpec spec, BlastRadius blast) throws FaultRefusedException {
    spec.netns().checkStatic(name(), blast);
    if (spec.share().isPresent() && spec.share().get() > blast.trafficShare()) {
      double allowed = blast.trafficShare();
      throw new FaultRefusedException(
          name()
              + ": share "
              + Shares.words(spec.share().get())
              + " of packets exceeds blast_radius traffic_share "
              + Shares.words(allowed)
              + "; expected a share of at most "
              + Numbers.format(allowed)
              + " (\""
              + Shares.words(allowed)
              + "\")");
    }
  }

  @Override
  public final Optional<String> words(PacketFilterSpec spec) {
    return Optional.of(verdictWords(spec) + " " + spec.target());
  }

  /** What happens to the matching packets, before the target. */
  abstract String verdictWords(PacketFilterSpec spec);

  @Override
  public final Fault create(PacketFilterSpec spec, FaultContext context, int index) {
    return new NftablesFault(spec, context, NftablesFault.newTableName());
  }

  @Override
  public final Fault restore(PacketFilterSpec spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    return NftablesFault.restore(spec, context, state);
  }

  /** network-partition: every matching packet dropped; connections time out. */
  public static final class PartitionKind extends PacketFilterKinds {
    public PartitionKind() {
      super(Effect.PARTITION, "namespace", "to", "ports", "protocol", "direction");
    }

    @Override
    String verdictWords(PacketFilterSpec spec) {
      return "drop traffic " + spec.direction().words();
    }
  }

  /** network-refuse: connections answered at once, TCP with a reset, the rest ICMP unreachable. */
  public static final class RefuseKind extends PacketFilterKinds {
    public RefuseKind() {
      super(Effect.REFUSE, "namespace", "to", "ports", "protocol");
    }

    @Override
    Protocol defaultProtocol() {
      return Protocol.TCP;
    }

    @Override
    String verdictWords(PacketFilterSpec spec) {
      return "refuse connections ("
          + (spec.protocol() == Protocol.TCP
              ? "TCP reset"
              : spec.protocol() == Protocol.UDP
                  ? "ICMP port unreachable"
                  : "TCP reset, ICMP port unreachable otherwise")
          + ") to";
    }
  }

  /** network-loss: a random share of the matching packets dropped. */
  public static final class LossKind extends PacketFilterKinds {
    public LossKind() {
      super(Effect.LOSS, "namespace", "to", "ports", "protocol", "direction", "share");
    }

    @Override
    String verdictWords(PacketFilterSpec spec) {
      return "drop " + spec.shareWords() + " of the packets " + spec.direction().words();
    }
  }
}
