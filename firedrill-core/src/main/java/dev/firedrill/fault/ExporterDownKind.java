package dev.firedrill.fault;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.FaultSpec.ExporterDown;
import dev.firedrill.experiment.Node;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * exporter-down: every scrape through the fault proxy in front of a metrics endpoint fails. A toxic
 * at 100% on scrapes only, so the blast radius's traffic share does not limit it: the ttl checks
 * are all it gets.
 */
public final class ExporterDownKind implements FaultKind<ExporterDown> {

  private static final List<String> MODES = List.of("error", "reset");

  @Override
  public String name() {
    return "exporter-down";
  }

  @Override
  public Class<ExporterDown> specType() {
    return ExporterDown.class;
  }

  @Override
  public List<String> keys() {
    return List.of("proxy", "proxy_name", "mode", "admin_token_env");
  }

  @Override
  public ExporterDown read(Node entry, Optional<Duration> ttl) {
    URI proxy =
        FaultFields.proxy(
            entry,
            name(),
            "the URL of the admin API of the fault proxy in front of the metrics" + " endpoint",
            "http://127.0.0.1:18475");
    String proxyName =
        FaultFields.proxyName(
            entry
                .get("proxy_name")
                .required(
                    "exporter-down needs proxy_name: the"
                        + " name of the fault proxy that Prometheus scrapes the service through, such as payments-metrics"),
            "payments-metrics");
    String mode = entry.get("mode").choice("mode", MODES, text -> text.toLowerCase(Locale.ROOT));
    String tokenEnv = FaultFields.adminTokenEnv(entry);
    return entry.clean()
        ? new ExporterDown(
            proxy,
            proxyName,
            mode == null ? null : ExporterDown.Mode.valueOf(mode.toUpperCase(Locale.ROOT)),
            ttl,
            Optional.ofNullable(tokenEnv))
        : null;
  }

  /**
   * The keys of the http-* kinds that someone may expect here, with why exporter-down has none of
   * them.
   */
  @Override
  public String explainUnknownKey(String key, String owners) {
    return switch (key) {
      case "share", "percent" -> owners + ": exporter-down fails every scrape";
      case "status" ->
          owners
              + ": exporter-down answers "
              + FaultSpec.HttpToxic.DEFAULT_STATUS
              + " (mode: error) or resets the connection (mode: reset)";
      default -> owners;
    };
  }

  @Override
  public void write(ExporterDown spec, ObjectNode node) {
    node.put("proxy", spec.proxy().toString());
    node.put("proxy_name", spec.proxyName());
    node.put("mode", spec.mode().text());
    spec.adminTokenEnv().ifPresent(variable -> node.put("admin_token_env", variable));
  }

  @Override
  public Fault create(ExporterDown spec, FaultContext context, int index) {
    return new HttpToxicFault(spec, context, HttpToxicFault.toxicName(context, index));
  }

  @Override
  public Fault restore(ExporterDown spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    return HttpToxicFault.restore(spec, context, state);
  }
}
