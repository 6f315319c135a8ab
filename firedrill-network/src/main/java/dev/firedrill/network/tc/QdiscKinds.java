package dev.firedrill.network.tc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.Node;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.FaultKind;
import dev.firedrill.fault.FaultRefusedException;
import dev.firedrill.network.Netns;
import dev.firedrill.network.NetworkFields;
import dev.firedrill.time.Durations;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The tc kinds: network-bandwidth (tbf) and network-delay (netem) share {@link QdiscSpec}; each is
 * a class below, listed on its own in META-INF/services.
 */
public abstract sealed class QdiscKinds implements FaultKind<QdiscSpec> {

  static final String BANDWIDTH = "network-bandwidth";
  static final String DELAY = "network-delay";

  /** What Linux calls a network device: at most 15 characters, no '/' or space. */
  private static final Pattern DEVICE = Pattern.compile("[A-Za-z0-9_.@:-]{1,15}");

  private static final Pattern RATE =
      Pattern.compile("\\d+(\\.\\d+)?(bit|kbit|mbit|gbit|bps|kbps|mbps|gbps)");
  private static final Pattern SIZE = Pattern.compile("\\d+(b|kb|mb|kbit|mbit)?");

  private final String name;
  private final List<String> keys;

  private QdiscKinds(String name, String... keys) {
    this.name = name;
    this.keys = List.of(keys);
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final Class<QdiscSpec> specType() {
    return QdiscSpec.class;
  }

  @Override
  public final List<String> keys() {
    return keys;
  }

  @Override
  public final QdiscSpec read(Node entry, Optional<Duration> ttl) {
    Netns netns = NetworkFields.namespace(entry);
    String device =
        entry
            .get("device")
            .required(name + " needs device: the link whose root qdisc it sets, such as eth0")
            .text(DEVICE, "expected a network device name (at most 15 characters), such as eth0");
    QdiscSpec.Shape shape = readShape(entry);
    return entry.clean() && shape != null ? new QdiscSpec(netns, device, shape, ttl) : null;
  }

  abstract QdiscSpec.Shape readShape(Node entry);

  abstract void writeShape(QdiscSpec.Shape shape, ObjectNode node);

  @Override
  public final void write(QdiscSpec spec, ObjectNode node) {
    spec.netns().name().ifPresent(namespace -> node.put("namespace", namespace));
    node.put("device", spec.device());
    writeShape(spec.shape(), node);
  }

  @Override
  public final void check(QdiscSpec spec, BlastRadius blast) throws FaultRefusedException {
    spec.netns().checkStatic(name, blast);
  }

  @Override
  public final Optional<String> words(QdiscSpec spec) {
    return Optional.of(spec.shape().words() + " on " + spec.target());
  }

  @Override
  public final Fault create(QdiscSpec spec, FaultContext context, int index) {
    return new QdiscFault(spec, context, QdiscFault.newHandle());
  }

  @Override
  public final Fault restore(QdiscSpec spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    return QdiscFault.restore(spec, context, state);
  }

  /** network-bandwidth: tbf's rate, burst and latency. */
  public static final class BandwidthKind extends QdiscKinds {
    public BandwidthKind() {
      super(BANDWIDTH, "namespace", "device", "rate", "burst", "latency");
    }

    @Override
    QdiscSpec.Shape readShape(Node entry) {
      String rate =
          entry
              .get("rate")
              .required(BANDWIDTH + " needs rate: what the device may send, such as 1mbit")
              .text(RATE, "expected a rate as tc writes it, such as 1mbit, 500kbit or 2mbps");
      String burst =
          entry
              .get("burst")
              .text(SIZE, "expected a size in bytes as tc writes it, such as 32kb or 10000");
      Duration latency = entry.get("latency").duration(true);
      return rate == null ? null : new QdiscSpec.Tbf(rate, burst, latency);
    }

    @Override
    void writeShape(QdiscSpec.Shape shape, ObjectNode node) {
      QdiscSpec.Tbf tbf = (QdiscSpec.Tbf) shape;
      node.put("rate", tbf.rate());
      node.put("burst", tbf.burst());
      node.put("latency", Durations.format(tbf.latency()));
    }
  }

  /** network-delay: netem's delay, jitter and loss. */
  public static final class DelayKind extends QdiscKinds {
    public DelayKind() {
      super(DELAY, "namespace", "device", "delay", "jitter", "loss");
    }

    @Override
    QdiscSpec.Shape readShape(Node entry) {
      Duration delay =
          entry
              .get("delay")
              .required(DELAY + " needs delay: what to add to each packet sent, such as 100ms")
              .duration(true);
      Duration jitter = entry.get("jitter").duration(false);
      Double loss = entry.get("loss").share();
      return delay == null ? null : new QdiscSpec.Netem(delay, jitter, Optional.ofNullable(loss));
    }

    @Override
    void writeShape(QdiscSpec.Shape shape, ObjectNode node) {
      QdiscSpec.Netem netem = (QdiscSpec.Netem) shape;
      node.put("delay", Durations.format(netem.delay()));
      node.put("jitter", Durations.format(netem.jitter()));
      netem.loss().ifPresent(loss -> node.put("loss", loss));
    }
  }
}
