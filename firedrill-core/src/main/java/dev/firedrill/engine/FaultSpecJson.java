package dev.firedrill.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.time.Durations;
import dev.firedrill.experiment.FaultSpec;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/** A fault spec in the journal, in the experiment file's own words, so cleanup can rebuild it. */
final class FaultSpecJson {

  private FaultSpecJson() {}

  static ObjectNode write(FaultSpec spec) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("kind", spec.kind());
    if (spec instanceof FaultSpec.ProcessKill kill) {
      node.put("match", kill.match());
      node.put("signal", kill.signal());
      kill.share().ifPresent(share -> node.put("share", share));
    } else if (spec instanceof FaultSpec.CpuBurn burn) {
      node.put("workers", burn.workers());
    } else if (spec instanceof FaultSpec.HttpToxic toxic) {
      node.put("proxy", toxic.proxy().toString());
      node.put("proxy_name", toxic.proxyName());
      node.put("share", toxic.share());
      FaultSpec.HttpToxic.Effect effect = toxic.effect();
      if (effect instanceof FaultSpec.HttpToxic.Latency latency) {
        node.put("latency", Durations.format(latency.latency()));
        node.put("jitter", Durations.format(latency.jitter()));
      } else if (effect instanceof FaultSpec.HttpToxic.Error error) {
        node.put("status", error.status());
      } else if (effect instanceof FaultSpec.HttpToxic.Timeout timeout) {
        node.put("timeout", Durations.format(timeout.timeout()));
      }
      toxic.adminTokenEnv().ifPresent(variable -> node.put("admin_token_env", variable));
    } else if (spec instanceof FaultSpec.ExporterDown down) {
      node.put("proxy", down.proxy().toString());
      node.put("proxy_name", down.proxyName());
      node.put("mode", down.mode().text());
      down.adminTokenEnv().ifPresent(variable -> node.put("admin_token_env", variable));
    }
    spec.ttl().ifPresent(ttl -> node.put("ttl", Durations.format(ttl)));
    return node;
  }

  static FaultSpec read(JsonNode node) {
    Optional<Duration> ttl = node.hasNonNull("ttl")
        ? Optional.of(Durations.parse(node.get("ttl").asText())) : Optional.empty();
    String kind = node.path("kind").asText();
    return switch (kind) {
      case "process-kill" -> new FaultSpec.ProcessKill(node.path("match").asText(), node.path("signal").asText(),
          share(node), ttl);
      case "cpu-burn" -> new FaultSpec.CpuBurn(node.path("workers").asInt(), ttl);
      case "http-latency", "http-error", "http-reset", "http-timeout" -> httpToxic(node, kind, ttl);
      case "exporter-down" -> new FaultSpec.ExporterDown(URI.create(node.path("proxy").asText()),
          node.path("proxy_name").asText(), mode(node.path("mode").asText("error")), ttl,
          Optional.ofNullable(node.path("admin_token_env").asText(null)));
      default -> throw new IllegalArgumentException("unknown fault kind \"" + kind + "\" in the journal");
    };
  }

  private static FaultSpec.HttpToxic httpToxic(JsonNode node, String kind, Optional<Duration> ttl) {
    FaultSpec.HttpToxic.Effect effect = switch (kind) {
      case "http-latency" -> new FaultSpec.HttpToxic.Latency(duration(node, "latency"), duration(node, "jitter"));
      case "http-error" -> new FaultSpec.HttpToxic.Error(node.path("status").asInt(FaultSpec.HttpToxic.DEFAULT_STATUS));
      case "http-timeout" -> new FaultSpec.HttpToxic.Timeout(duration(node, "timeout"));
      default -> new FaultSpec.HttpToxic.Reset();
    };
    return new FaultSpec.HttpToxic(URI.create(node.path("proxy").asText()), node.path("proxy_name").asText(null),
        share(node).orElse(FaultSpec.HttpToxic.DEFAULT_SHARE), effect, ttl,
        Optional.ofNullable(node.path("admin_token_env").asText(null)));
  }

  /** {@code share} (a fraction); journals written before it say {@code percent} (0 to 100). */
  private static Optional<Double> share(JsonNode node) {
    if (node.hasNonNull("share")) {
      return Optional.of(node.get("share").asDouble());
    }
    return node.hasNonNull("percent") ? Optional.of(node.get("percent").asDouble() / 100) : Optional.empty();
  }

  private static FaultSpec.ExporterDown.Mode mode(String text) {
    for (FaultSpec.ExporterDown.Mode mode : FaultSpec.ExporterDown.Mode.values()) {
      if (mode.text().equals(text)) {
        return mode;
      }
    }
    throw new IllegalArgumentException("unknown exporter-down mode \"" + text + "\" in the journal; expected error or reset");
  }

  private static Duration duration(JsonNode node, String key) {
    return node.hasNonNull(key) ? Durations.parse(node.get(key).asText()) : null;
  }
}
