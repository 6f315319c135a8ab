package dev.firedrill.network.nft;

import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.Shares;
import dev.firedrill.network.Netns;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * network-partition, network-refuse and network-loss: an nftables table in a namespace whose rules
 * match a set of target addresses; each element of the set times out at the ttl in the kernel.
 *
 * @param to the targets, IPv4 addresses or networks, at least one
 * @param ports the targets' ports (the destination going out, the source coming in); empty: all
 * @param share network-loss's share of the matching packets dropped, in whole percent
 */
public record PacketFilterSpec(
    Effect effect,
    Netns netns,
    List<String> to,
    List<Integer> ports,
    Protocol protocol,
    Direction direction,
    Optional<Double> share,
    Optional<Duration> ttl)
    implements FaultSpec {

  /** What the rules do to the matching packets; each is a kind of its own. */
  public enum Effect {
    PARTITION("network-partition"),
    REFUSE("network-refuse"),
    LOSS("network-loss");

    private final String kind;

    Effect(String kind) {
      this.kind = kind;
    }

    public String kind() {
      return kind;
    }
  }

  public PacketFilterSpec {
    Objects.requireNonNull(effect, "effect");
    Objects.requireNonNull(netns, "netns");
    to = List.copyOf(to);
    ports = List.copyOf(ports);
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(direction, "direction");
    share = share == null ? Optional.empty() : share;
    ttl = ttl == null ? Optional.empty() : ttl;
    if (to.isEmpty()) {
      throw new IllegalArgumentException("to needs at least one address");
    }
  }

  @Override
  public String kind() {
    return effect.kind();
  }

  /** {@code 10.0.0.2 port 8080 (tcp) in netns app}. */
  @Override
  public String target() {
    return String.join(", ", to)
        + (ports.isEmpty()
            ? ""
            : " port"
                + (ports.size() > 1 ? "s " : " ")
                + ports.stream().map(String::valueOf).collect(Collectors.joining(", ")))
        + (protocol == Protocol.ALL ? "" : " (" + protocol.text() + ")")
        + " in "
        + netns.words();
  }

  @Override
  public String targetName() {
    return netns.name().orElse("host");
  }

  /** The share as a whole percentage, for nft's {@code numgen random mod 100 < N}. */
  int percent() {
    return (int) Math.round(share.orElse(1.0) * 100);
  }

  String shareWords() {
    return Shares.words(share.orElse(1.0));
  }
}
