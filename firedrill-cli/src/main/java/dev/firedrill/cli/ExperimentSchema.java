package dev.firedrill.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.fault.FaultKind;
import dev.firedrill.fault.FaultKinds;
import java.util.List;
import java.util.Map;

/**
 * The experiment file's JSON Schema (draft 2020-12), for editors. The entries of {@code
 * method.faults} come from the installed fault kinds themselves (their names and {@link
 * FaultKind#keys()}, the list the loader refuses unknown keys by), so a new kind is in the schema
 * as soon as it is on the class path. The sections are declared here, key for key as the loader in
 * dev.firedrill.experiment reads them; ExperimentSchemaTest runs every fixture, good and
 * deliberately bad, through both and fails when they disagree.
 */
final class ExperimentSchema {

  static final String ID = "https://firedrill.dev/schema/experiment.json";

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  /** The value types of fault keys several kinds share; a key not listed takes any value. */
  private static final Map<String, ObjectNode> FAULT_KEYS =
      Map.ofEntries(
          Map.entry("proxy", url("The fault proxy's admin API, such as http://127.0.0.1:8474.")),
          Map.entry("proxy_name", text("The proxy's name for the upstream, such as payments.")),
          Map.entry("share", share("The share of calls touched: a fraction (0.2) or \"20%\".")),
          Map.entry(
              "percent",
              string("The share of calls as a percentage string such as \"20%\" (prefer share).")
                  .put("pattern", "^[0-9]+(\\.[0-9]+)?%$")),
          Map.entry("latency", duration("Added latency, such as 200ms.")),
          Map.entry("jitter", duration("Random variation of the latency, such as 20ms.")),
          Map.entry("timeout", duration("How long before the call times out.")),
          Map.entry("interval", duration("Time between actions.")),
          Map.entry("grace_period", duration("The pods' termination grace period.")),
          Map.entry("inject_timeout", duration("How long to wait for the injection.")),
          Map.entry("delete_timeout", duration("How long to wait for the removal.")),
          Map.entry("status", integer("The HTTP status answered, such as 503.", 100)),
          Map.entry("workers", integer("How many busy processes.", 1)),
          Map.entry("match", text("Processes whose command line contains this.")),
          Map.entry("signal", text("The signal sent (default KILL), such as TERM.")),
          Map.entry("admin_token_env", text("The environment variable holding the proxy's token.")),
          Map.entry("manifest", text("A file holding the Chaos Mesh object.")),
          Map.entry(
              "object", object("The Chaos Mesh object inline.").put("additionalProperties", true)));

  private ExperimentSchema() {}

  static ObjectNode schema(FaultKinds kinds) {
    ObjectNode schema = JSON.objectNode();
    schema.put("$schema", "https://json-schema.org/draft/2020-12/schema");
    schema.put("$id", ID);
    schema.put("title", "firedrill experiment");
    schema.put(
        "description",
        "A chaos experiment run as a fire drill: its steady state, faults, abort rules, blast"
            + " radius and the alerts it must trigger. Secrets are never written here: name the"
            + " environment variable (*_env) or file (*_file) holding them.");
    closed(
        schema,
        List.of("id", "title", "prometheus", "steady_state", "method", "abort", "blast_radius"),
        Map.ofEntries(
            Map.entry(
                "id",
                text("Lowercase letters, digits, '.', '_' and '-', such as checkout-latency.")
                    .put("pattern", "^[a-z0-9][a-z0-9._-]*$")),
            Map.entry("title", text("What the drill shows, in one line.")),
            Map.entry("owner", text("The team that owns the drill.")),
            Map.entry("prometheus", prometheus()),
            Map.entry("alertmanager", client("Alertmanager, for routing checks.", Map.of())),
            Map.entry("receiver", receiver()),
            Map.entry("steady_state", steadyState()),
            Map.entry("hypothesis", hypothesis()),
            Map.entry("method", method(kinds)),
            Map.entry("abort", abort()),
            Map.entry("blast_radius", blastRadius()),
            Map.entry("markers", markers()),
            Map.entry(
                "kubernetes",
                closed(
                    object("The cluster the Kubernetes faults use."),
                    List.of(),
                    Map.of("context", text("A kubeconfig context (default: the current one)."))))));
    return schema;
  }

  private static ObjectNode prometheus() {
    return client(
        "The Prometheus whose queries and rules the drill uses.",
        Map.of(
            "rules_url", url("Where the rules are read, when not from url (a ruler)."),
            "scrape_interval", duration("The scrape interval, when the server does not say."),
            "evaluation_interval",
                duration("The evaluation interval, when the server does not say."),
            "query_offset", duration("The rule query offset, when the server does not say.")));
  }

  /** A client section: url, timeout, headers, a bearer token or basic auth, TLS; plus extras. */
  private static ObjectNode client(String description, Map<String, ObjectNode> extra) {
    ObjectNode properties = JSON.objectNode();
    properties.set("url", url("The http or https URL."));
    properties.set("timeout", duration("Each request's timeout."));
    properties.set(
        "headers",
        object("Headers that are not secret, such as X-Scope-OrgID.")
            .set("additionalProperties", string("The header's value.")));
    properties.set("bearer_token_env", text("The environment variable holding a bearer token."));
    properties.set("bearer_token_file", text("The file holding a bearer token."));
    properties.set(
        "basic_auth",
        closed(
            object("Basic auth; the password from an environment variable or a file."),
            List.of("username"),
            Map.of(
                "username", text("The user name."),
                "password_env", text("The environment variable holding the password."),
                "password_file", text("The file holding the password."))));
    properties.set(
        "tls",
        closed(
            object("TLS for an https URL."),
            List.of(),
            Map.of(
                "ca_file", text("The CA bundle."),
                "cert_file", text("The client certificate."),
                "key_file", text("The client key."),
                "server_name", text("The name the certificate must carry."),
                "insecure_skip_verify", bool("Skip verifying the certificate (tests only)."))));
    extra.forEach(properties::set);
    ObjectNode node = object(description);
    node.set("required", JSON.arrayNode().add("url"));
    node.set("properties", properties);
    node.put("additionalProperties", false);
    return node;
  }

  private static ObjectNode receiver() {
    return closed(
        object("firedrill's webhook receiver, for Alertmanager's notifications."),
        List.of("listen"),
        Map.of(
            "listen", text("HOST:PORT, such as 127.0.0.1:19101."),
            "bearer_token_env", text("The environment variable holding the token it requires."),
            "bearer_token_file", text("The file holding the token it requires."),
            "max_payload", integer("The largest payload accepted, in bytes.", 1024)));
  }

  private static ObjectNode steadyState() {
    ObjectNode sli =
        closed(
            object("An SLI: a PromQL query and the range it must stay in."),
            List.of("name", "query"),
            Map.ofEntries(
                Map.entry("name", text("The SLI's name, used by abort rules.")),
                Map.entry("query", text("PromQL returning one series.")),
                Map.entry("max", number("The highest value within steady state.")),
                Map.entry("min", number("The lowest value within steady state.")),
                Map.entry("control", text("The control group's query.")),
                Map.entry("max_delta", number("Most the experiment may exceed the control by.")),
                Map.entry("min_delta", number("Least experiment minus control.")),
                Map.entry("max_ratio", number("Most experiment over control.")),
                Map.entry("min_ratio", number("Least experiment over control.")),
                Map.entry("missing", text("No data is fail (default) or inconclusive."))));
    return closed(
        object("What is measured before, during and after the fault."),
        List.of("slis"),
        Map.of(
            "interval", duration("How often the SLIs are measured."),
            "slis", list("The SLIs.", sli).put("minItems", 1)));
  }

  private static ObjectNode hypothesis() {
    ObjectNode alert =
        closed(
            object("An alert the fault must trigger, or one that must stay silent."),
            List.of("alert"),
            Map.of(
                "alert",
                text("The alert's name."),
                "matchers",
                object("Labels the firing alert must carry.")
                    .set("additionalProperties", JSON.objectNode()),
                "expect",
                text("firing (default) or silent."),
                "within",
                duration("How soon after injection it must fire."),
                "receiver",
                text("The Alertmanager receiver it must reach."),
                "runbook_url",
                text("The runbook_url annotation it must carry."),
                "dashboard",
                text("The dashboard annotation it must carry."),
                "check_links",
                bool("Whether the links must answer.")));
    return closed(
        object("What the drill expects of the system and its alerts."),
        List.of(),
        Map.of(
            "description", text("The hypothesis in words."),
            "recovery", duration("How soon the SLIs must be back after the fault."),
            "alerts", list("The expected alerts.", alert)));
  }

  private static ObjectNode method(FaultKinds kinds) {
    ObjectNode fault = object("One fault; its keys depend on its kind.");
    fault.set("required", JSON.arrayNode().add("kind"));
    ObjectNode common = JSON.objectNode();
    ArrayNode names = JSON.arrayNode();
    kinds.names().forEach(names::add);
    common.set("kind", string("The fault kind.").set("enum", names));
    common.set(
        "ttl", duration("How long the fault may live if firedrill dies; enforced outside it."));
    fault.set("properties", common);
    ArrayNode byKind = JSON.arrayNode();
    for (String name : kinds.names()) {
      ObjectNode properties = JSON.objectNode();
      for (String key : kinds.kind(name).keys()) {
        ObjectNode type = FAULT_KEYS.get(key);
        properties.set(key, type != null ? type.deepCopy() : JSON.objectNode());
      }
      ObjectNode branch = JSON.objectNode();
      branch.set(
          "if",
          JSON.objectNode()
              .set(
                  "properties",
                  JSON.objectNode().set("kind", JSON.objectNode().put("const", name))));
      branch.set("then", JSON.objectNode().set("properties", properties));
      byKind.add(branch);
    }
    fault.set("allOf", byKind);
    // Properties named by the matching kind's branch count as evaluated; any other is refused.
    fault.put("unevaluatedProperties", false);
    return closed(
        object("How long the faults stay on, and the faults."),
        List.of("duration", "faults"),
        Map.of(
            "duration", duration("How long the faults stay on."),
            "faults", list("The faults, injected in order.", fault).put("minItems", 1)));
  }

  private static ObjectNode abort() {
    ObjectNode rule =
        closed(
            object("Abort when an SLI crosses a bound."),
            List.of("sli"),
            Map.of(
                "sli", text("The SLI's name."),
                "above", number("Abort above this."),
                "below", number("Abort below this."),
                "for", integer("Consecutive measurements before aborting.", 1)));
    ObjectNode burnRate =
        closed(
            object("Abort when the error budget burns too fast."),
            List.of("objective", "error_ratio", "max"),
            Map.of(
                "objective",
                share("The SLO, such as 99.9% or 0.999."),
                "window",
                duration("The SLO's window (default 30d)."),
                "error_ratio",
                text("PromQL: the error ratio."),
                "max",
                number("The highest burn rate allowed, such as 14.4."),
                "missing",
                text("No data is fail (default) or inconclusive."),
                "remaining_budget",
                text("PromQL: the share of the error budget left (stop when it runs out).")));
    return closed(
        object("When the drill stops early."),
        List.of(),
        Map.of(
            "rules", list("Abort rules.", rule),
            "burn_rate", burnRate,
            "probe_errors", integer("Failed measurements in a row before aborting.", 1),
            "abort_file", text("Abort as soon as this file exists.")));
  }

  private static ObjectNode blastRadius() {
    return closed(
        object("How much the drill may break; refused before anything runs."),
        List.of("traffic_share", "max_duration"),
        Map.of(
            "traffic_share", share("The share of traffic the faults may touch."),
            "max_duration", duration("The longest the drill may run."),
            "budget_ceiling", share("The most error budget the drill may spend."),
            "max_processes", integer("The most processes a fault may touch.", 1),
            "max_workers", integer("The most cpu-burn workers.", 1),
            "namespaces", list("Kubernetes namespaces the faults may touch.", text("A namespace.")),
            "max_percent", share("The most pods of a selection, as a share."),
            "max_pods", integer("The most pods a fault may touch.", 1),
            "allow_host_network", bool("Whether pods on the host network may be touched.")));
  }

  private static ObjectNode markers() {
    return closed(
        object("Where the drill marks itself: Grafana annotations, a gauge."),
        List.of(),
        Map.of(
            "grafana",
            client(
                "Grafana, for annotations.",
                Map.of(
                    "dashboard_uid",
                    text("The dashboard annotated."),
                    "panel_id",
                    integer("The panel annotated.", 0),
                    "org_id",
                    integer("The organization annotated (sent as X-Grafana-Org-Id).", 1))),
            "metrics",
            closed(
                object("chaos_experiment_active, served or pushed."),
                List.of(),
                Map.of(
                    "listen", text("HOST:PORT to serve /metrics on."),
                    "scrape_wait", duration("How long to wait for a scrape at the end."),
                    "pushgateway", url("A Pushgateway to push to.")))));
  }

  private static ObjectNode closed(
      ObjectNode node, List<String> required, Map<String, ObjectNode> properties) {
    if (!required.isEmpty()) {
      ArrayNode names = node.putArray("required");
      required.forEach(names::add);
    }
    ObjectNode props = node.putObject("properties");
    properties.keySet().stream().sorted().forEach(key -> props.set(key, properties.get(key)));
    node.put("additionalProperties", false);
    return node;
  }

  private static ObjectNode object(String description) {
    return JSON.objectNode().put("type", "object").put("description", description);
  }

  private static ObjectNode string(String description) {
    return JSON.objectNode().put("type", "string").put("description", description);
  }

  private static ObjectNode text(String description) {
    return string(description).put("minLength", 1);
  }

  private static ObjectNode url(String description) {
    return string(description).put("pattern", "^[hH][tT][tT][pP][sS]?://");
  }

  private static ObjectNode number(String description) {
    return JSON.objectNode().put("type", "number").put("description", description);
  }

  private static ObjectNode integer(String description, int minimum) {
    return JSON.objectNode()
        .put("type", "integer")
        .put("minimum", minimum)
        .put("description", description);
  }

  private static ObjectNode bool(String description) {
    return JSON.objectNode().put("type", "boolean").put("description", description);
  }

  /** Prometheus's duration spelling, units largest first: 500ms, 30s, 1h30m, 30d. */
  private static ObjectNode duration(String description) {
    return string(description)
        .put(
            "pattern",
            "^(0|(?=[0-9])([0-9]+y)?([0-9]+w)?([0-9]+d)?([0-9]+h)?([0-9]+m)?([0-9]+s)?([0-9]+ms)?)$");
  }

  /** A fraction in (0, 1] or a percentage string such as "5%". */
  private static ObjectNode share(String description) {
    ObjectNode node = JSON.objectNode().put("description", description);
    ArrayNode choices = node.putArray("oneOf");
    choices.add(
        JSON.objectNode().put("type", "number").put("exclusiveMinimum", 0).put("maximum", 1));
    choices.add(JSON.objectNode().put("type", "string").put("pattern", "^[0-9]+(\\.[0-9]+)?%$"));
    return node;
  }

  private static ObjectNode list(String description, ObjectNode items) {
    ObjectNode node = JSON.objectNode().put("type", "array").put("description", description);
    node.set("items", items);
    return node;
  }
}
