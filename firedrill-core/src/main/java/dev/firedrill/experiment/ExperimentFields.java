package dev.firedrill.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every key of the experiment file outside {@code method.faults} entries (whose keys are their
 * fault kind's, {@code FaultKind#keys()}), declared once: its section, value type, whether it is
 * required and what it means. The loader reads no key this table does not declare ({@link Node#get}
 * refuses to, which fails every test that reads a fixture), and {@code firedrill schema} is
 * generated from it; a test loads every fixture, and each declared field removed or mistyped,
 * through both.
 */
public final class ExperimentFields {

  /** What a value is; the loader's conversion for it is named. */
  public enum Type {
    /** A non-empty string ({@link Node#text()}). */
    TEXT,
    /** An http or https URL ({@link Node#url}). */
    URL,
    /** A Prometheus duration such as 30s ({@link Node#duration}, {@link Node#timeout()}). */
    DURATION,
    /** A fraction in (0, 1] or a percentage string ({@link Node#share()}). */
    SHARE,
    NUMBER,
    /** An integer of at least {@link Field#minimum()} ({@link Node#integer}). */
    INTEGER,
    BOOLEAN,
    /** A mapping whose keys are the declared section {@link Field#section()}. */
    SECTION,
    /** A list of mappings, each the declared section {@link Field#section()}. */
    SECTIONS,
    /** A list of non-empty strings. */
    TEXTS,
    /** A mapping of free keys to strings (headers). */
    STRINGS,
    /** A mapping of free keys to scalars (an alert's label matchers). */
    LABELS,
    /** A list of faults, each read by its kind: not declared here. */
    FAULTS
  }

  /**
   * One key. {@code pattern} is a regular expression the value must match, for the schema (the
   * loader's own check says it in words); {@code minimum} applies to integers and to lists.
   */
  public record Field(
      String name,
      Type type,
      boolean required,
      String description,
      String section,
      Optional<String> pattern,
      int minimum) {}

  /** The section the file itself is. */
  public static final String ROOT = "experiment";

  private static final Map<String, List<Field>> SECTIONS = new LinkedHashMap<>();
  private static final Map<String, String> DESCRIPTIONS = new LinkedHashMap<>();

  static {
    section(
        ROOT,
        "A chaos experiment run as a fire drill: its steady state, faults, abort rules, blast"
            + " radius and the alerts it must trigger. Secrets are never written here: name the"
            + " environment variable (*_env) or file (*_file) holding them.",
        req(
                "id",
                Type.TEXT,
                "Lowercase letters, digits, '.', '_' and '-', such as checkout-latency.")
            .pattern("^[a-z0-9][a-z0-9._-]*$"),
        req("title", Type.TEXT, "What the drill shows, in one line."),
        opt("owner", Type.TEXT, "The team that owns the drill."),
        req("prometheus", Type.SECTION, "The Prometheus whose queries and rules the drill uses.")
            .of("prometheus"),
        opt("alertmanager", Type.SECTION, "Alertmanager, for routing checks.").of("alertmanager"),
        opt(
                "receiver",
                Type.SECTION,
                "firedrill's webhook receiver, for Alertmanager's notifications.")
            .of("receiver"),
        req("steady_state", Type.SECTION, "What is measured before, during and after the fault.")
            .of("steady_state"),
        opt("hypothesis", Type.SECTION, "What the drill expects of the system and its alerts.")
            .of("hypothesis"),
        req("method", Type.SECTION, "How long the faults stay on, and the faults.").of("method"),
        req("abort", Type.SECTION, "When the drill stops early.").of("abort"),
        req(
                "blast_radius",
                Type.SECTION,
                "How much the drill may break; refused before anything runs.")
            .of("blast_radius"),
        opt("markers", Type.SECTION, "Where the drill marks itself: Grafana annotations, a gauge.")
            .of("markers"),
        opt("kubernetes", Type.SECTION, "The cluster the Kubernetes faults use.").of("kubernetes"));
    client(
        "prometheus",
        opt("rules_url", Type.URL, "Where the rules are read, when not from url (a ruler)."),
        opt("scrape_interval", Type.DURATION, "The scrape interval, when the server does not say."),
        opt(
            "evaluation_interval",
            Type.DURATION,
            "The evaluation interval, when the server does not say."),
        opt("query_offset", Type.DURATION, "The rule query offset, when the server does not say."));
    client("alertmanager");
    section(
        "basic_auth",
        "Basic auth; the password from an environment variable or a file.",
        req("username", Type.TEXT, "The user name."),
        opt("password_env", Type.TEXT, "The environment variable holding the password."),
        opt("password_file", Type.TEXT, "The file holding the password."));
    section(
        "tls",
        "TLS for an https URL.",
        opt("ca_file", Type.TEXT, "The CA bundle."),
        opt("cert_file", Type.TEXT, "The client certificate."),
        opt("key_file", Type.TEXT, "The client key."),
        opt("server_name", Type.TEXT, "The name the certificate must carry."),
        opt("insecure_skip_verify", Type.BOOLEAN, "Skip verifying the certificate (tests only)."));
    section(
        "receiver",
        "firedrill's webhook receiver, for Alertmanager's notifications.",
        req("listen", Type.TEXT, "HOST:PORT, such as 127.0.0.1:19101."),
        opt(
            "bearer_token_env",
            Type.TEXT,
            "The environment variable holding the token it requires."),
        opt("bearer_token_file", Type.TEXT, "The file holding the token it requires."),
        opt("max_payload", Type.INTEGER, "The largest payload accepted, in bytes.").min(1024));
    section(
        "steady_state",
        "What is measured before, during and after the fault.",
        opt("interval", Type.DURATION, "How often the SLIs are measured."),
        req("slis", Type.SECTIONS, "The SLIs.").of("sli").min(1));
    section(
        "sli",
        "An SLI: a PromQL query and the range it must stay in.",
        req("name", Type.TEXT, "The SLI's name, used by abort rules."),
        req("query", Type.TEXT, "PromQL returning one series."),
        opt("max", Type.NUMBER, "The highest value within steady state."),
        opt("min", Type.NUMBER, "The lowest value within steady state."),
        opt("control", Type.TEXT, "The control group's query."),
        opt("max_delta", Type.NUMBER, "Most the experiment may exceed the control by."),
        opt("min_delta", Type.NUMBER, "Least experiment minus control."),
        opt("max_ratio", Type.NUMBER, "Most experiment over control."),
        opt("min_ratio", Type.NUMBER, "Least experiment over control."),
        opt("missing", Type.TEXT, "No data is fail (default) or inconclusive."));
    section(
        "hypothesis",
        "What the drill expects of the system and its alerts.",
        opt("description", Type.TEXT, "The hypothesis in words."),
        opt("recovery", Type.DURATION, "How soon the SLIs must be back after the fault."),
        opt("alerts", Type.SECTIONS, "The expected alerts.").of("alert"));
    section(
        "alert",
        "An alert the fault must trigger, or one that must stay silent.",
        req("alert", Type.TEXT, "The alert's name."),
        opt("matchers", Type.LABELS, "Labels the firing alert must carry."),
        opt("expect", Type.TEXT, "firing (default) or silent."),
        req("within", Type.DURATION, "How soon after injection it must fire."),
        opt("receiver", Type.TEXT, "The Alertmanager receiver it must reach."),
        opt("runbook_url", Type.TEXT, "The runbook_url annotation it must carry."),
        opt("dashboard", Type.TEXT, "The dashboard annotation it must carry."),
        opt("check_links", Type.BOOLEAN, "Whether the links must answer."));
    section(
        "method",
        "How long the faults stay on, and the faults.",
        req("duration", Type.DURATION, "How long the faults stay on."),
        req("faults", Type.FAULTS, "The faults, injected in order.").min(1));
    section(
        "abort",
        "When the drill stops early.",
        opt("rules", Type.SECTIONS, "Abort rules.").of("abort_rule"),
        opt("burn_rate", Type.SECTION, "Abort when the error budget burns too fast.")
            .of("burn_rate"),
        opt("probe_errors", Type.INTEGER, "Failed measurements in a row before aborting.").min(1),
        opt("abort_file", Type.TEXT, "Abort as soon as this file exists."));
    section(
        "abort_rule",
        "Abort when an SLI crosses a bound.",
        req("sli", Type.TEXT, "The SLI's name."),
        opt("above", Type.NUMBER, "Abort above this."),
        opt("below", Type.NUMBER, "Abort below this."),
        opt("for", Type.INTEGER, "Consecutive measurements before aborting.").min(1));
    section(
        "burn_rate",
        "Abort when the error budget burns too fast.",
        req("objective", Type.SHARE, "The SLO, such as 99.9% or 0.999."),
        opt("window", Type.DURATION, "The SLO's window (default 30d)."),
        req("error_ratio", Type.TEXT, "PromQL: the error ratio."),
        req("max", Type.NUMBER, "The highest burn rate allowed, such as 14.4."),
        opt("missing", Type.TEXT, "No data is fail (default) or inconclusive."),
        opt(
            "remaining_budget",
            Type.TEXT,
            "PromQL: the share of the error budget left (stop when it runs out)."));
    section(
        "blast_radius",
        "How much the drill may break; refused before anything runs.",
        req("traffic_share", Type.SHARE, "The share of traffic the faults may touch."),
        req("max_duration", Type.DURATION, "The longest the drill may run."),
        opt("budget_ceiling", Type.SHARE, "The most error budget the drill may spend."),
        opt("max_processes", Type.INTEGER, "The most processes a fault may touch.").min(1),
        opt("max_workers", Type.INTEGER, "The most cpu-burn workers.").min(1),
        opt("namespaces", Type.TEXTS, "Kubernetes namespaces the faults may touch."),
        opt("max_percent", Type.SHARE, "The most pods of a selection, as a share."),
        opt("max_pods", Type.INTEGER, "The most pods a fault may touch.").min(1),
        opt(
            "allow_host_network",
            Type.BOOLEAN,
            "Whether pods on the host network may be touched."));
    section(
        "markers",
        "Where the drill marks itself: Grafana annotations, a gauge.",
        opt("grafana", Type.SECTION, "Grafana, for annotations.").of("grafana"),
        opt("metrics", Type.SECTION, "chaos_experiment_active, served or pushed.").of("metrics"));
    client(
        "grafana",
        opt("dashboard_uid", Type.TEXT, "The dashboard annotated."),
        opt("panel_id", Type.INTEGER, "The panel annotated.").min(0),
        opt("org_id", Type.INTEGER, "The organization annotated (sent as X-Grafana-Org-Id).")
            .min(1));
    section(
        "metrics",
        "chaos_experiment_active, served or pushed.",
        opt("listen", Type.TEXT, "HOST:PORT to serve /metrics on."),
        opt("scrape_wait", Type.DURATION, "How long to wait for a scrape at the end."),
        opt("pushgateway", Type.URL, "A Pushgateway to push to."));
    section(
        "kubernetes",
        "The cluster the Kubernetes faults use.",
        opt("context", Type.TEXT, "A kubeconfig context (default: the current one)."));
  }

  private ExperimentFields() {}

  /** The section's fields, in the order declared; empty for a name never declared. */
  public static List<Field> fields(String section) {
    return SECTIONS.getOrDefault(section, List.of());
  }

  /** What the section is, for an entry of a list of it; empty for a client section. */
  public static String description(String section) {
    return DESCRIPTIONS.getOrDefault(section, "");
  }

  /** Every declared section's name. */
  public static List<String> sections() {
    return List.copyOf(SECTIONS.keySet());
  }

  /**
   * The section a JSON pointer of the file is ({@code ""} the file, {@code /steady_state/slis/0} an
   * SLI), or empty when it is none: a value, a fault entry, a free mapping.
   */
  public static Optional<String> sectionAt(String pointer) {
    String section = ROOT;
    String[] steps = pointer.isEmpty() ? new String[0] : pointer.substring(1).split("/", -1);
    for (int i = 0; i < steps.length; i++) {
      Field field = field(section, steps[i]).orElse(null);
      if (field == null) {
        return Optional.empty();
      }
      if (field.type() == Type.SECTION) {
        section = field.section();
      } else if (field.type() == Type.SECTIONS
          && i + 1 < steps.length
          && steps[i + 1].matches("[0-9]+")) {
        section = field.section();
        i++;
      } else {
        return Optional.empty();
      }
    }
    return Optional.of(section);
  }

  public static Optional<Field> field(String section, String name) {
    return fields(section).stream().filter(f -> f.name().equals(name)).findFirst();
  }

  /** The keys every client section has (url, timeout, headers, credentials, TLS), then extras. */
  private static void client(String name, Builder... extra) {
    List<Builder> fields = new ArrayList<>();
    fields.add(req("url", Type.URL, "The http or https URL."));
    fields.add(opt("timeout", Type.DURATION, "Each request's timeout."));
    fields.add(opt("headers", Type.STRINGS, "Headers that are not secret, such as X-Scope-OrgID."));
    fields.add(
        opt("bearer_token_env", Type.TEXT, "The environment variable holding a bearer token."));
    fields.add(opt("bearer_token_file", Type.TEXT, "The file holding a bearer token."));
    fields.add(
        opt(
                "basic_auth",
                Type.SECTION,
                "Basic auth; the password from an environment variable or a file.")
            .of("basic_auth"));
    fields.add(opt("tls", Type.SECTION, "TLS for an https URL.").of("tls"));
    fields.addAll(List.of(extra));
    section(name, "", fields.toArray(Builder[]::new));
  }

  private static void section(String name, String description, Builder... fields) {
    List<Field> built = new ArrayList<>();
    for (Builder b : fields) {
      built.add(b.build());
    }
    SECTIONS.put(name, List.copyOf(built));
    DESCRIPTIONS.put(name, description);
  }

  private static Builder req(String name, Type type, String description) {
    return new Builder(name, type, true, description);
  }

  private static Builder opt(String name, Type type, String description) {
    return new Builder(name, type, false, description);
  }

  private static final class Builder {
    private final String name;
    private final Type type;
    private final boolean required;
    private final String description;
    private String section = "";
    private String pattern;
    private int minimum;

    Builder(String name, Type type, boolean required, String description) {
      this.name = name;
      this.type = type;
      this.required = required;
      this.description = description;
    }

    Builder of(String section) {
      this.section = section;
      return this;
    }

    Builder pattern(String pattern) {
      this.pattern = pattern;
      return this;
    }

    Builder min(int minimum) {
      this.minimum = minimum;
      return this;
    }

    Field build() {
      return new Field(
          name, type, required, description, section, Optional.ofNullable(pattern), minimum);
    }
  }
}
