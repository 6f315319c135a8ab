package dev.firedrill.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.ExperimentFields;
import dev.firedrill.fault.FaultKind;
import dev.firedrill.fault.FaultKinds;
import java.util.List;
import java.util.Map;

/**
 * The experiment file's JSON Schema (draft 2020-12), for editors. The entries of {@code
 * method.faults} come from the installed fault kinds themselves (their names and {@link
 * FaultKind#keys()}, the list the loader refuses unknown keys by), so a new kind is in the schema
 * as soon as it is on the class path. Every other key comes from {@link ExperimentFields}, the
 * table the loader reads by (it cannot read a key the table lacks); ExperimentSchemaTest runs every
 * fixture, good and deliberately bad, and every declared field removed or mistyped, through both
 * and fails when they disagree.
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
    ObjectNode schema = section(ExperimentFields.ROOT, kinds);
    schema.put("$schema", "https://json-schema.org/draft/2020-12/schema");
    schema.put("$id", ID);
    schema.put("title", "firedrill experiment");
    schema.put(
        "description",
        "A chaos experiment run as a fire drill: its steady state, faults, abort rules, blast"
            + " radius and the alerts it must trigger. Secrets are never written here: name the"
            + " environment variable (*_env) or file (*_file) holding them.");
    return schema;
  }

  /** A declared section as a closed object: its fields, those required, no others. */
  private static ObjectNode section(String name, FaultKinds kinds) {
    List<ExperimentFields.Field> fields = ExperimentFields.fields(name);
    ObjectNode node = JSON.objectNode().put("type", "object");
    if (!ExperimentFields.description(name).isEmpty()) {
      node.put("description", ExperimentFields.description(name));
    }
    List<String> required =
        fields.stream().filter(ExperimentFields.Field::required).map(f -> f.name()).toList();
    Map<String, ObjectNode> properties = new java.util.LinkedHashMap<>();
    fields.forEach(f -> properties.put(f.name(), value(f, kinds)));
    return closed(node, required, properties);
  }

  private static ObjectNode value(ExperimentFields.Field field, FaultKinds kinds) {
    String about = field.description();
    ObjectNode node =
        switch (field.type()) {
          case TEXT -> text(about);
          case URL -> url(about);
          case DURATION -> duration(about);
          case SHARE -> share(about);
          case NUMBER -> number(about);
          case INTEGER -> integer(about, field.minimum());
          case BOOLEAN -> bool(about);
          case SECTION -> section(field.section(), kinds).put("description", about);
          case SECTIONS -> list(about, section(field.section(), kinds));
          case TEXTS -> list(about, text("One entry."));
          case STRINGS ->
              (ObjectNode) object(about).set("additionalProperties", string("The header's value."));
          case LABELS -> (ObjectNode) object(about).set("additionalProperties", JSON.objectNode());
          case FAULTS -> list(about, fault(kinds));
        };
    field.pattern().ifPresent(p -> node.put("pattern", p));
    if ((field.type() == ExperimentFields.Type.SECTIONS
            || field.type() == ExperimentFields.Type.FAULTS)
        && field.minimum() > 0) {
      node.put("minItems", field.minimum());
    }
    return node;
  }

  /** One entry of method.faults: its kind, its ttl, and the keys its kind reads. */
  private static ObjectNode fault(FaultKinds kinds) {
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
    return fault;
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
