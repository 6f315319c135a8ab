package dev.firedrill.spring.chaosmonkey;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;

/**
 * The URLs and JSON bodies of Chaos Monkey's actuator endpoint ({@code /chaosmonkey/assaults},
 * {@code /watchers}, {@code /enable}, {@code /disable}, {@code /status}), in one place so that
 * {@code plan} prints exactly what inject and revert send.
 */
final class Requests {

  private static final ObjectMapper JSON = Json.MAPPER;

  /** The assaults firedrill never switches on, and switches off with its own. */
  private static final String[] OTHER_ASSAULTS = {
    "killApplicationActive", "memoryActive", "cpuActive"
  };

  private final String base;

  Requests(URI actuator) {
    this.base = actuator.toString().replaceAll("/+$", "") + "/chaosmonkey";
  }

  URI url(String path) {
    return URI.create(base + path);
  }

  URI assaults() {
    return url("/assaults");
  }

  URI watchers() {
    return url("/watchers");
  }

  URI enable() {
    return url("/enable");
  }

  URI disable() {
    return url("/disable");
  }

  URI status() {
    return url("/status");
  }

  /** The drill's assaults; the ones it does not use are switched off so only its own act. */
  static String assaultsBody(Assaults assaults) {
    ObjectNode node = JSON.createObjectNode();
    node.put("level", assaults.level());
    node.put("deterministic", assaults.deterministic());
    node.put("latencyActive", assaults.latency().isPresent());
    assaults
        .latency()
        .ifPresent(
            range -> {
              node.put("latencyRangeStart", range.startMillis());
              node.put("latencyRangeEnd", range.endMillis());
            });
    node.put("exceptionsActive", assaults.exception().isPresent());
    assaults.exception().ifPresent(type -> node.putObject("exception").put("type", type));
    for (String other : OTHER_ASSAULTS) {
      node.put(other, false);
    }
    return node.toString();
  }

  /** Every assault flag off: what revert sends after /disable. */
  static String assaultsOffBody() {
    ObjectNode node = JSON.createObjectNode();
    node.put("latencyActive", false);
    node.put("exceptionsActive", false);
    for (String other : OTHER_ASSAULTS) {
      node.put(other, false);
    }
    return node.toString();
  }

  /** Exactly the drill's watchers; the outgoing-client and health watchers off. */
  static String watchersBody(Watchers watchers) {
    ObjectNode node = JSON.createObjectNode();
    node.put("controller", watchers.controller());
    node.put("restController", watchers.restController());
    node.put("service", watchers.service());
    node.put("repository", watchers.repository());
    node.put("component", watchers.component());
    node.put("restTemplate", false);
    node.put("webClient", false);
    node.put("actuatorHealth", false);
    return node.toString();
  }
}
