package dev.firedrill.fault;

import static dev.firedrill.time.Durations.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.TokenSource;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A toxic on a fault proxy: firedrill's, whose toxic carries its ttl so the proxy removes it by
 * itself even when firedrill is killed, or Toxiproxy ({@code proxy_kind: toxiproxy}), which has no
 * ttl, so firedrill's watchdog deletes it. Revert deletes it; verify lists the proxy's toxics. It
 * serves the http-* faults, on user traffic, and exporter-down, a toxic at 100% on the proxy
 * Prometheus scrapes a service through, which touches no user traffic.
 */
public final class HttpToxicFault implements Fault {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The fault as the file says it; its kind names it in every message. */
  private final FaultSpec spec;

  /** The toxic it adds. */
  private final FaultSpec.HttpToxic toxicSpec;

  private final FaultContext context;
  private final String toxic;

  /**
   * What this object's last revert did, in the rollback line's words: "removed toxic ..." or "toxic
   * ... was already gone ..."; null before any revert, as when cleanup first checks.
   */
  private String undone;

  /** This object's POST answered 200/201: the toxic on the proxy is this run's. */
  private boolean created;

  /**
   * This object's POST answered 409 before it created anything: the toxic of that name is another
   * drill's (one still in its method, or one left behind), and this run's rollback must not delete
   * it.
   */
  private boolean foreign;

  HttpToxicFault(FaultSpec.HttpToxic spec, FaultContext context, String toxic) {
    this(spec, spec, context, toxic);
  }

  HttpToxicFault(FaultSpec.ExporterDown spec, FaultContext context, String toxic) {
    this(spec, spec.toxic(), context, toxic);
  }

  private HttpToxicFault(
      FaultSpec spec, FaultSpec.HttpToxic toxicSpec, FaultContext context, String toxic) {
    this.spec = spec;
    this.toxicSpec = toxicSpec;
    this.context = context;
    this.toxic = toxic;
  }

  /**
   * {@code firedrill-<experiment id>-<run id>-<index>} (without a run id, {@code
   * firedrill-<experiment id>-<index>}): a journal and a proxy listing name the same toxic, and the
   * rollback's DELETE names this run's toxic only, never a second drill's of the same experiment.
   */
  static String toxicName(FaultContext context, int index) {
    String run = context.runId().isEmpty() ? "" : context.runId() + "-";
    return "firedrill-" + context.experimentId() + "-" + run + index;
  }

  static HttpToxicFault restore(
      FaultSpec.HttpToxic spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    return new HttpToxicFault(spec, context, StateValues.text(state.get("toxic"), "toxic"));
  }

  static HttpToxicFault restore(
      FaultSpec.ExporterDown spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    return new HttpToxicFault(spec, context, StateValues.text(state.get("toxic"), "toxic"));
  }

  @Override
  public FaultSpec spec() {
    return spec;
  }

  /** The toxic's name on the proxy. */
  public String toxicName() {
    return toxic;
  }

  @Override
  public List<String> plan() throws FaultException {
    Duration ttl = check();
    token();
    if (context.resolve()) {
      checkTheProxyBeforeInjection();
    }
    List<String> plan = new ArrayList<>();
    plan.add("POST " + toxicsUrl() + " " + body(ttl));
    if (spec instanceof FaultSpec.ExporterDown down) {
      plan.add(
          "every scrape through proxy "
              + down.proxyName()
              + " fails ("
              + (down.mode() == FaultSpec.ExporterDown.Mode.ERROR
                  ? "answered " + FaultSpec.HttpToxic.DEFAULT_STATUS
                  : "connection reset")
              + ") until the toxic goes; no user traffic goes through it, so blast_radius"
              + " traffic_share does not limit it");
    }
    if (toxiproxy()) {
      plan.add(
          "Toxiproxy has no ttl: at the end, or by the watchdog "
              + format(ttl)
              + " after injection if firedrill dies, DELETE "
              + toxicUrl()
              + "; verified by GET "
              + toxicsUrl()
              + " no longer listing "
              + toxic);
    } else {
      plan.add("the proxy removes toxic " + toxic + " by itself after " + format(ttl));
    }
    return List.copyOf(plan);
  }

  /**
   * Before anything is injected: the admin API answers (a stalled one refuses the drill, where it
   * made a rollback that could not be verified, exit 7, after nothing had been injected), and no
   * toxic of this experiment is on the proxy (a second drill of one experiment against one proxy is
   * refused up front, never left to collide with the first).
   */
  private void checkTheProxyBeforeInjection() throws FaultException {
    ProxyAdminClient.Answer answer;
    try {
      answer = client().get(toxicsUrl());
    } catch (FaultException e) {
      throw new FaultException(e.getMessage() + "; checked before injection, nothing was injected");
    }
    if (answer.status() != 200) {
      throw new FaultException(
          spec.kind()
              + ": GET "
              + toxicsUrl()
              + " answered "
              + answer.describe()
              + " before injection; expected 200 with the toxics of a proxy named "
              + toxicSpec.proxyName());
    }
    JsonNode listed;
    try {
      listed = JSON.readTree(answer.body());
    } catch (IOException e) {
      listed = null;
    }
    if (listed == null || !listed.isArray()) {
      throw new FaultException(
          spec.kind()
              + ": GET "
              + toxicsUrl()
              + " answered 200 without a list of toxics before injection; expected a fault proxy's"
              + " admin API");
    }
    String experiment = context.experimentId();
    for (JsonNode listedToxic : listed) {
      String name = listedToxic.path("name").asText();
      if (ofExperiment(name, experiment) && !(created && name.equals(toxic))) {
        throw new FaultException(
            spec.kind()
                + ": toxic "
                + name
                + " of experiment "
                + experiment
                + " is already on proxy "
                + toxicSpec.proxyName()
                + " at "
                + toxicSpec.proxy()
                + ": another drill of this experiment is running against it, or one left it"
                + " behind; wait for its ttl or remove it with: curl -X DELETE "
                + toxicsUrl()
                + "/"
                + name);
      }
    }
  }

  /**
   * A toxic firedrill named for {@code experimentId}, by this run or another, with a run id or not.
   */
  static boolean ofExperiment(String toxicName, String experimentId) {
    String prefix = "firedrill-" + experimentId + "-";
    return toxicName.startsWith(prefix)
        && toxicName.substring(prefix.length()).matches("([0-9a-f]{8}-)?\\d+");
  }

  private Duration check() throws FaultException {
    // exporter-down touches scrapes only: the traffic share of the blast radius is about user
    // traffic
    return FaultChecks.check(spec, context.blastRadius(), context.methodDuration());
  }

  /**
   * The request body, in Toxiproxy's shape, plus the ttl on firedrill's proxy; Toxiproxy's own name
   * for a reset is {@code reset_peer}.
   */
  String body(Duration ttl) {
    ObjectNode node = JSON.createObjectNode();
    node.put("name", toxic);
    ObjectNode attributes = JSON.createObjectNode();
    FaultSpec.HttpToxic.Effect effect = toxicSpec.effect();
    String stream = "downstream";
    if (effect instanceof FaultSpec.HttpToxic.Latency latency) {
      node.put("type", "latency");
      attributes.put("latency", latency.latency().toMillis());
      attributes.put("jitter", latency.jitter().toMillis());
    } else if (effect instanceof FaultSpec.HttpToxic.Error error) {
      node.put("type", "error");
      attributes.put("status", error.status());
    } else if (effect instanceof FaultSpec.HttpToxic.Timeout timeout) {
      node.put("type", "timeout");
      attributes.put("timeout", timeout.timeout().toMillis());
      stream = "upstream"; // held before the upstream sees it
    } else if (toxiproxy()) {
      node.put("type", "reset_peer");
      attributes.put("timeout", 0); // reset at once
      stream = "upstream";
    } else {
      node.put("type", "reset");
      stream = "upstream"; // reset before the upstream sees it
    }
    node.put("stream", stream);
    node.put("toxicity", toxicSpec.share());
    node.set("attributes", attributes);
    if (!toxiproxy()) {
      node.put("ttl", format(ttl));
    }
    return node.toString();
  }

  @Override
  public void inject() throws FaultException {
    Duration ttl = check();
    ProxyAdminClient.Answer answer = client().post(toxicsUrl(), body(ttl));
    if (answer.status() == 409) {
      foreign = !created;
      throw new FaultException(
          spec.kind()
              + ": toxic "
              + toxic
              + " already exists on proxy "
              + toxicSpec.proxyName()
              + " at "
              + toxicSpec.proxy()
              + " (left by an earlier drill of this experiment?); remove it with: "
              + manualRevertCommand());
    }
    if (answer.status() == 404) {
      throw new FaultException(
          spec.kind()
              + ": POST "
              + toxicsUrl()
              + " answered "
              + answer.describe()
              + "; expected a proxy named "
              + toxicSpec.proxyName()
              + " on "
              + toxicSpec.proxy()
              + " (GET "
              + toxicSpec.proxy().toString().replaceAll("/+$", "")
              + "/proxies lists them)");
    }
    if (answer.status() != 200 && answer.status() != 201 || !json(answer.body())) {
      // A 200 whose body is no JSON (a login page, a cut answer) is no proof the toxic is on:
      // measuring the drill as though it were would be a pass for a fault never injected.
      throw new FaultException(
          spec.kind()
              + ": POST "
              + toxicsUrl()
              + " answered "
              + answer.describe()
              + (answer.status() / 100 == 2 ? " with a body that is not JSON" : "")
              + "; expected 200 with the toxic");
    }
    created = true;
  }

  private static boolean json(String body) {
    try {
      JsonNode node = JSON.readTree(body);
      return node != null && !node.isMissingNode();
    } catch (IOException e) {
      return false;
    }
  }

  /** What the rollback says when this run never created the toxic it is named after. */
  private String notOurs() {
    return "toxic "
        + toxic
        + " on proxy "
        + toxicSpec.proxyName()
        + " was not created by this drill (the proxy had it already, 409); left in place for the"
        + " drill that owns it";
  }

  @Override
  public void revert() throws FaultException {
    if (foreign) {
      undone = notOurs();
      return;
    }
    ProxyAdminClient.Answer answer = client().delete(toxicUrl());
    if (answer.status() != 204 && answer.status() != 200 && answer.status() != 404) {
      throw new FaultException(
          spec.kind()
              + ": DELETE "
              + toxicUrl()
              + " answered "
              + answer.describe()
              + "; expected 204, or 404 when it is already gone");
    }
    undone =
        answer.status() == 404
            ? "toxic " + toxic + " was already gone from proxy " + toxicSpec.proxyName()
            : "removed toxic " + toxic + " from proxy " + toxicSpec.proxyName();
  }

  /** Lists the proxy's toxics: the rollback line says the toxic is no longer among them. */
  @Override
  public Verification verify() {
    if (foreign) {
      return Verification.reverted(notOurs() + "; verified: this drill sent no DELETE");
    }
    ProxyAdminClient.Answer answer;
    try {
      answer = client().get(toxicsUrl());
    } catch (FaultException e) {
      return Verification.remaining(e.getMessage());
    }
    String removed =
        undone != null ? undone : "toxic " + toxic + " is not on proxy " + toxicSpec.proxyName();
    if (answer.status() == 404) {
      return Verification.reverted(
          removed + "; verified: the proxy itself is gone (404), and its toxics with it");
    }
    JsonNode listed = null;
    try {
      listed = answer.status() == 200 ? JSON.readTree(answer.body()) : null;
    } catch (IOException e) {
      // answered below as not a list
    }
    if (listed == null || !listed.isArray()) {
      return Verification.remaining(
          "GET "
              + toxicsUrl()
              + " answered "
              + answer.describe()
              + "; expected 200 with the proxy's toxics");
    }
    for (JsonNode listedToxic : listed) {
      if (toxic.equals(listedToxic.path("name").asText())) {
        String left =
            listedToxic.hasNonNull("ttl_remaining")
                ? ", ttl_remaining " + listedToxic.get("ttl_remaining").asText()
                : "";
        return Verification.remaining(
            "toxic " + toxic + " still on proxy " + toxicSpec.proxyName() + left);
      }
    }
    return Verification.reverted(removed + "; verified: the proxy no longer lists it");
  }

  @Override
  public TtlEnforcer ttlEnforcer() {
    return toxiproxy() ? TtlEnforcer.WATCHDOG : TtlEnforcer.INJECTOR;
  }

  private boolean toxiproxy() {
    return toxicSpec.proxyKind() == FaultSpec.HttpToxic.ProxyKind.TOXIPROXY;
  }

  @Override
  public String manualRevertCommand() {
    String auth =
        toxicSpec
            .adminTokenEnv()
            .map(variable -> "-H \"Authorization: Bearer $" + variable + "\" ")
            .orElse("");
    return "curl -X DELETE " + auth + toxicUrl();
  }

  @Override
  public Map<String, Object> state() {
    Map<String, Object> state = new LinkedHashMap<>();
    state.put("proxy", toxicSpec.proxy().toString());
    state.put("proxy_name", toxicSpec.proxyName());
    state.put("toxic", toxic);
    return state;
  }

  /**
   * The toxic's name is this run's before the POST: cleanup deletes it if the POST went through.
   */
  @Override
  public Optional<Map<String, Object>> stateBeforeInjection() {
    return Optional.of(state());
  }

  private ProxyAdminClient client() throws FaultException {
    return new ProxyAdminClient(spec.kind(), token());
  }

  private Optional<String> token() throws FaultException {
    if (toxicSpec.adminTokenEnv().isEmpty()) {
      return Optional.empty();
    }
    TokenSource source = new TokenSource.FromEnv(toxicSpec.adminTokenEnv().get());
    try {
      return source.resolve(context.environment());
    } catch (IOException e) {
      throw new FaultException(spec.kind() + ": proxy admin token: " + e.getMessage());
    }
  }

  private URI toxicsUrl() {
    String base = toxicSpec.proxy().toString().replaceAll("/+$", "");
    return URI.create(base + "/proxies/" + toxicSpec.proxyName() + "/toxics");
  }

  private URI toxicUrl() {
    return URI.create(toxicsUrl() + "/" + toxic);
  }
}
