package dev.firedrill.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.Durations;
import dev.firedrill.experiment.FaultSpec;
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
      kill.percent().ifPresent(p -> node.put("percent", p));
    } else if (spec instanceof FaultSpec.CpuBurn burn) {
      node.put("workers", burn.workers());
    }
    spec.ttl().ifPresent(ttl -> node.put("ttl", Durations.format(ttl)));
    return node;
  }

  static FaultSpec read(JsonNode node) {
    Optional<java.time.Duration> ttl = node.hasNonNull("ttl")
        ? Optional.of(Durations.parse(node.get("ttl").asText())) : Optional.empty();
    String kind = node.path("kind").asText();
    return switch (kind) {
      case "process-kill" -> new FaultSpec.ProcessKill(node.path("match").asText(), node.path("signal").asText(),
          node.hasNonNull("percent") ? Optional.of(node.get("percent").asDouble()) : Optional.empty(), ttl);
      case "cpu-burn" -> new FaultSpec.CpuBurn(node.path("workers").asInt(), ttl);
      default -> throw new IllegalArgumentException("unknown fault kind \"" + kind + "\" in the journal");
    };
  }
}
