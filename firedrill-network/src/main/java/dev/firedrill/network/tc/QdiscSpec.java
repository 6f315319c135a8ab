package dev.firedrill.network.tc;

import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.Shares;
import dev.firedrill.network.Netns;
import dev.firedrill.network.NetworkFields;
import dev.firedrill.time.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * network-bandwidth and network-delay: a root qdisc on a device of a namespace, shaping what the
 * device sends (egress). tc qdiscs have no ttl: the watchdog holds it.
 */
public record QdiscSpec(Netns netns, String device, Shape shape, Optional<Duration> ttl)
    implements FaultSpec {

  /** The qdisc and its options. */
  public sealed interface Shape {
    /** The kind of this shape's fault. */
    String kind();

    /** tc's name of the qdisc. */
    String qdisc();

    /** The qdisc's options as tc takes them, after its name. */
    List<String> options();

    /** In words, for plan. */
    String words();
  }

  /**
   * network-bandwidth: a token bucket filter; {@code latency} is how long a packet may wait for
   * tokens before it is dropped.
   */
  public record Tbf(String rate, String burst, Duration latency) implements Shape {
    public static final String DEFAULT_BURST = "32kb";
    public static final Duration DEFAULT_LATENCY = Duration.ofMillis(400);

    public Tbf {
      Objects.requireNonNull(rate, "rate");
      burst = burst == null ? DEFAULT_BURST : burst;
      latency = latency == null ? DEFAULT_LATENCY : latency;
    }

    @Override
    public String kind() {
      return QdiscKinds.BANDWIDTH;
    }

    @Override
    public String qdisc() {
      return "tbf";
    }

    @Override
    public List<String> options() {
      return List.of("rate", rate, "burst", burst, "latency", NetworkFields.time(latency));
    }

    @Override
    public String words() {
      return "limit what it sends to " + rate + " (burst " + burst + ")";
    }
  }

  /** network-delay: netem's delay, plus or minus jitter, and an optional share lost. */
  public record Netem(Duration delay, Duration jitter, Optional<Double> loss) implements Shape {
    public Netem {
      Objects.requireNonNull(delay, "delay");
      jitter = jitter == null ? Duration.ZERO : jitter;
      loss = loss == null ? Optional.empty() : loss;
    }

    @Override
    public String kind() {
      return QdiscKinds.DELAY;
    }

    @Override
    public String qdisc() {
      return "netem";
    }

    @Override
    public List<String> options() {
      List<String> options = new ArrayList<>(List.of("delay", NetworkFields.time(delay)));
      if (!jitter.isZero()) {
        options.add(NetworkFields.time(jitter));
      }
      loss.ifPresent(share -> options.addAll(List.of("loss", Shares.words(share))));
      return List.copyOf(options);
    }

    @Override
    public String words() {
      return "delay what it sends by "
          + Durations.format(delay)
          + (jitter.isZero() ? "" : " \u00b1 " + Durations.format(jitter))
          + loss.map(share -> ", losing " + Shares.words(share)).orElse("");
    }
  }

  public QdiscSpec {
    Objects.requireNonNull(netns, "netns");
    Objects.requireNonNull(device, "device");
    Objects.requireNonNull(shape, "shape");
    ttl = ttl == null ? Optional.empty() : ttl;
  }

  @Override
  public String kind() {
    return shape.kind();
  }

  /** {@code dev eth0 in netns app}. */
  @Override
  public String target() {
    return "dev " + device + " in " + netns.words();
  }

  @Override
  public String targetName() {
    return netns.name().orElse("host");
  }
}
