package dev.firedrill.fault;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.FaultSpec.HttpToxic;
import dev.firedrill.experiment.Node;
import dev.firedrill.experiment.Numbers;
import dev.firedrill.experiment.Shares;
import dev.firedrill.time.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The http-* kinds: a toxic on a fault proxy, acting on a share of the requests through it. They
 * share one spec record, {@link HttpToxic}, and everything but their effect; each kind is one class
 * below, listed on its own in META-INF/services.
 *
 * @param <E> the kind's effect
 */
public abstract sealed class HttpToxicKinds<E extends HttpToxic.Effect>
    implements FaultKind<HttpToxic> {

  private static final List<String> KEYS =
      List.of("proxy", "proxy_name", "proxy_kind", "share", "percent", "admin_token_env");

  private final String name;
  private final Class<E> effectType;
  private final List<String> keys;

  private HttpToxicKinds(String name, Class<E> effectType, String... effectKeys) {
    this.name = name;
    this.effectType = effectType;
    List<String> all = new ArrayList<>(KEYS);
    all.addAll(List.of(effectKeys));
    this.keys = List.copyOf(all);
  }

  /** Reads the effect's own keys; null, with a problem recorded, when one is wrong. */
  abstract E readEffect(Node entry);

  /** Writes the effect's own keys, as {@link #readEffect} reads them. */
  abstract void writeEffect(E effect, ObjectNode node);

  /** What the effect does to a call, after "20% of calls to payments ". */
  abstract String effectWords(E effect, String proxyName);

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final Class<HttpToxic> specType() {
    return HttpToxic.class;
  }

  @Override
  public final List<String> keys() {
    return keys;
  }

  @Override
  public final HttpToxic read(Node entry, Optional<Duration> ttl) {
    var proxy =
        FaultFields.proxy(
            entry, name, "the URL of the fault proxy's admin API", "http://127.0.0.1:8474");
    String proxyName = FaultFields.proxyName(entry.get("proxy_name"), "payments");
    Double share = FaultFields.share(entry, "requests");
    Node kindNode = entry.get("proxy_kind");
    String proxyKind =
        kindNode.choice(
            "proxy kind", List.of("firedrill", "toxiproxy"), text -> text.toLowerCase(Locale.ROOT));
    String tokenEnv = FaultFields.adminTokenEnv(entry);
    E effect = readEffect(entry);
    HttpToxic.ProxyKind kind =
        proxyKind == null
            ? HttpToxic.ProxyKind.FIREDRILL
            : HttpToxic.ProxyKind.valueOf(proxyKind.toUpperCase(Locale.ROOT));
    if (kind == HttpToxic.ProxyKind.TOXIPROXY) {
      toxiproxyRefusal().ifPresent(kindNode::problem);
    }
    return entry.clean()
        ? new HttpToxic(
            proxy,
            proxyName,
            share == null ? HttpToxic.DEFAULT_SHARE : share,
            effect,
            ttl,
            Optional.ofNullable(tokenEnv),
            kind)
        : null;
  }

  /** Why Toxiproxy cannot do this kind's effect, when it cannot. */
  Optional<String> toxiproxyRefusal() {
    return Optional.empty();
  }

  @Override
  public final void write(HttpToxic spec, ObjectNode node) {
    node.put("proxy", spec.proxy().toString());
    node.put("proxy_name", spec.proxyName());
    node.put("share", spec.share());
    if (spec.proxyKind() != HttpToxic.ProxyKind.FIREDRILL) {
      node.put("proxy_kind", spec.proxyKind().text());
    }
    writeEffect(effectType.cast(spec.effect()), node);
    spec.adminTokenEnv().ifPresent(variable -> node.put("admin_token_env", variable));
  }

  @Override
  public final void check(HttpToxic spec, BlastRadius blast) throws FaultRefusedException {
    double allowed = blast.trafficShare();
    if (spec.share() > allowed) {
      throw new FaultRefusedException(
          name
              + ": share "
              + Shares.words(spec.share())
              + " of requests exceeds blast_radius traffic_share "
              + Shares.words(allowed)
              + "; expected a share of at most "
              + Numbers.format(allowed)
              + " (\""
              + Shares.words(allowed)
              + "\")");
    }
  }

  /** {@code 20% of calls to payments answered 503 without reaching payments}. */
  @Override
  public final Optional<String> words(HttpToxic spec) {
    return Optional.of(
        Shares.words(spec.share())
            + " of calls to "
            + spec.proxyName()
            + " "
            + effectWords(effectType.cast(spec.effect()), spec.proxyName()));
  }

  @Override
  public final Fault create(HttpToxic spec, FaultContext context, int index) {
    return new HttpToxicFault(spec, context, HttpToxicFault.toxicName(context, index));
  }

  @Override
  public final Fault restore(HttpToxic spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    return HttpToxicFault.restore(spec, context, state);
  }

  /** http-latency: adds latency, plus or minus up to jitter. */
  public static final class LatencyKind extends HttpToxicKinds<HttpToxic.Latency> {
    public LatencyKind() {
      super("http-latency", HttpToxic.Latency.class, "latency", "jitter");
    }

    @Override
    HttpToxic.Latency readEffect(Node entry) {
      Duration latency =
          entry
              .get("latency")
              .required("http-latency needs latency: the delay to add, such as 200ms")
              .duration(true);
      Duration jitter = entry.get("jitter").duration(false);
      return latency == null ? null : new HttpToxic.Latency(latency, jitter);
    }

    @Override
    void writeEffect(HttpToxic.Latency effect, ObjectNode node) {
      node.put("latency", Durations.format(effect.latency()));
      node.put("jitter", Durations.format(effect.jitter()));
    }

    @Override
    String effectWords(HttpToxic.Latency effect, String proxyName) {
      return "delayed "
          + Durations.format(effect.latency())
          + (effect.jitter().isZero() ? "" : " \u00b1 " + Durations.format(effect.jitter()));
    }
  }

  /** http-error: the proxy answers an error status without calling the upstream. */
  public static final class ErrorKind extends HttpToxicKinds<HttpToxic.Error> {
    public ErrorKind() {
      super("http-error", HttpToxic.Error.class, "status");
    }

    @Override
    HttpToxic.Error readEffect(Node entry) {
      Node statusNode = entry.get("status");
      Integer status = statusNode.integer(0);
      if (status != null && (status < 400 || status > 599)) {
        return statusNode.fail("expected an HTTP error status from 400 to 599, such as 503");
      }
      return new HttpToxic.Error(status == null ? HttpToxic.DEFAULT_STATUS : status);
    }

    @Override
    void writeEffect(HttpToxic.Error effect, ObjectNode node) {
      node.put("status", effect.status());
    }

    @Override
    String effectWords(HttpToxic.Error effect, String proxyName) {
      return "answered " + effect.status() + " without reaching " + proxyName;
    }

    /** Toxiproxy works on TCP bytes: no toxic of its answers an HTTP status. */
    @Override
    Optional<String> toxiproxyRefusal() {
      return Optional.of(
          "http-error answers an HTTP status, and Toxiproxy has no toxic that does (its toxics act"
              + " on TCP bytes); expected proxy_kind: firedrill (the default), or http-reset or"
              + " http-timeout for a failure Toxiproxy can make");
    }
  }

  /** http-reset: the client's connection is closed with a TCP RST. */
  public static final class ResetKind extends HttpToxicKinds<HttpToxic.Reset> {
    public ResetKind() {
      super("http-reset", HttpToxic.Reset.class);
    }

    @Override
    HttpToxic.Reset readEffect(Node entry) {
      return new HttpToxic.Reset();
    }

    @Override
    void writeEffect(HttpToxic.Reset effect, ObjectNode node) {}

    @Override
    String effectWords(HttpToxic.Reset effect, String proxyName) {
      return "reset (TCP RST)";
    }
  }

  /**
   * http-timeout: the request is held, then its connection closed; a zero timeout holds it until
   * the toxic goes.
   */
  public static final class TimeoutKind extends HttpToxicKinds<HttpToxic.Timeout> {
    public TimeoutKind() {
      super("http-timeout", HttpToxic.Timeout.class, "timeout");
    }

    @Override
    HttpToxic.Timeout readEffect(Node entry) {
      return new HttpToxic.Timeout(entry.get("timeout").duration(false));
    }

    @Override
    void writeEffect(HttpToxic.Timeout effect, ObjectNode node) {
      node.put("timeout", Durations.format(effect.timeout()));
    }

    @Override
    String effectWords(HttpToxic.Timeout effect, String proxyName) {
      return effect.timeout().isZero()
          ? "held until the toxic goes"
          : "held " + Durations.format(effect.timeout()) + ", then closed";
    }
  }
}
