package dev.firedrill.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.http.BasicAuth;
import dev.firedrill.http.HttpSettings;
import dev.firedrill.http.Tls;
import dev.firedrill.yaml.SourceTree;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * Reads an experiment file (YAML, or JSON for {@code .json} or text starting with {@code {}) and
 * checks all of it, reporting every problem at once with its JSON pointer, line and column.
 */
public final class ExperimentLoader {

  /** JSON or YAML by the file's name; one document; typed scalars; malformed text explained, excerpts hidden. */
  private static final SourceTree.Options READING =
      new SourceTree.Options(true, true, SourceTree.Scalars.TYPED, true);
  private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9._-]*");
  private static final Pattern SLI_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
  private static final Pattern SECRET = Pattern.compile(
      "(?i).*(token|password|passwd|secret|api_?key|authorization|credential|basic_?auth).*");
  private static final List<String> MISSING = List.of("fail", "inconclusive");
  private static final List<String> EXPECT = List.of("firing", "silent");
  /** Any text that is valid UTF-8: no unpaired surrogate, no NUL. */
  private static final Pattern UTF8_NAME = Pattern.compile("(?:[^\\x00\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])+");
  private static final Pattern LISTEN = Pattern.compile("(localhost|\\d{1,3}(\\.\\d{1,3}){3}|\\[[0-9a-fA-F:]+\\]):\\d{1,5}");
  private static final Pattern DASHBOARD_UID = Pattern.compile("[A-Za-z0-9_-]{1,40}");
  private static final String USE_TOKEN_KEYS = "use bearer_token_env or bearer_token_file";
  /** For the clients firedrill opens (Prometheus, Alertmanager, Grafana), which also take basic auth. */
  private static final String USE_CREDENTIAL_KEYS =
      "use bearer_token_env, bearer_token_file or basic_auth (username with password_env or password_file)";
  private static final String USE_PASSWORD_KEYS = "use password_env or password_file";
  /** An HTTP header name (RFC 9110 token). */
  private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
  /** Headers that carry credentials whatever their value. */
  private static final Pattern SECRET_HEADER = Pattern.compile(
      "(?i).*(token|password|passwd|secret|api[-_]?key|credential|cookie|authorization).*");
  private static final Set<String> CREDENTIAL_HEADERS = Set.of("authorization", "proxy-authorization", "cookie",
      "set-cookie");
  /** Headers the JDK's HTTP client sets itself and refuses to take. */
  private static final Set<String> RESTRICTED_HEADERS = Set.of("host", "connection", "content-length", "expect",
      "upgrade");

  /** Found once, on first use: see {@link FaultSpecReader#installed()}. */
  private static FaultSpecReader installedReader;

  private final Node.Context context;
  private final FaultSpecReader faultReader;
  /** The SLI names of the steady state, for the abort rules. */
  private final Set<String> sliNames = new LinkedHashSet<>();

  private ExperimentLoader(Node.Context context) {
    this.context = context;
    this.faultReader = installedReader();
  }

  private static synchronized FaultSpecReader installedReader() {
    if (installedReader == null) {
      installedReader = FaultSpecReader.installed();
    }
    return installedReader;
  }

  /** Reads and checks a file; the problems name the file as given. */
  public static Experiment load(Path file) throws ExperimentException {
    String name = file.toString();
    String content;
    try {
      content = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw unreadable(name, "no such file");
    } catch (AccessDeniedException e) {
      throw unreadable(name, "permission denied");
    } catch (MalformedInputException e) {
      throw unreadable(name, "not UTF-8 text");
    } catch (IOException e) {
      throw unreadable(name, Files.isDirectory(file) ? "a directory, not a file" : String.valueOf(e.getMessage()));
    }
    return load(name, content);
  }

  /** Reads and checks text; {@code fileName} names it in problems and chooses YAML or JSON. */
  public static Experiment load(String fileName, String content) throws ExperimentException {
    SourceTree<Problem> tree = SourceTree.read(fileName, content, READING, Problem::new);
    if (tree.malformed() != null) {
      throw new ExperimentException(List.of(tree.malformed()));
    }
    Node.Context context = new Node.Context(fileName, tree.positions(), new ArrayList<>(tree.problems()));
    Experiment experiment;
    try {
      experiment = new ExperimentLoader(context).experiment(new Node(context, "", tree.root()));
    } catch (IllegalArgumentException e) { // a model check the loader missed: still a problem, not a crash
      context.add("", String.valueOf(e.getMessage()));
      experiment = null;
    }
    if (!context.clean()) {
      List<Problem> problems = new ArrayList<>(context.problems);
      problems.sort(Comparator.comparingInt(Problem::line).thenComparingInt(Problem::column));
      throw new ExperimentException(problems);
    }
    return experiment;
  }

  /**
   * Reads one entry of {@code method.faults} on its own with {@code reader}, as a journal keeps each
   * fault: in the file's own words. {@code source} names it in problems, which have no line: the entry
   * is a tree already.
   */
  public static FaultSpec fault(String source, JsonNode entry, FaultSpecReader reader) throws ExperimentException {
    Node.Context context = new Node.Context(source, Map.of("", new SourceTree.Position(0, 0)), new ArrayList<>());
    Node node = new Node(context, "", entry).object();
    FaultSpec spec;
    try {
      spec = node == null ? null : reader.read(node);
    } catch (IllegalArgumentException e) { // as in load: a model check the reader missed
      context.add("", String.valueOf(e.getMessage()));
      spec = null;
    }
    if (!context.clean()) {
      throw new ExperimentException(context.problems);
    }
    return spec;
  }

  private static ExperimentException unreadable(String file, String why) {
    return new ExperimentException(List.of(new Problem(file, "", "cannot read: " + why, 0, 0)));
  }

  private Experiment experiment(Node root) {
    String expected = "expected an experiment: a mapping with id, title, prometheus, steady_state, method,"
        + " abort and blast_radius";
    if (!root.present()) {
      root.problem(expected + "; the file is empty");
      return null;
    }
    if (!root.json.isObject()) {
      return root.fail(expected);
    }
    String id = root.get("id").required("an experiment needs an id such as checkout-latency")
        .text(ID, "expected an id of lowercase letters, digits, '.', '_' and '-', such as checkout-latency");
    String title = root.get("title").required("an experiment needs a title that says what the drill shows").text();
    String owner = root.get("owner").text();
    PrometheusSource prometheus = prometheus(
        root.section("prometheus", "an experiment needs a prometheus section with the url of Prometheus"));
    SteadyState steadyState = steadyState(root.section("steady_state",
        "a steady state is measured, not assumed; an experiment needs steady_state with at least one SLI"));
    boolean routable = root.get("alertmanager").present() || root.get("receiver").present();
    Hypothesis hypothesis = hypothesis(root.section("hypothesis", null), routable);
    Method method = method(
        root.section("method", "an experiment needs a method: a duration and at least one fault"));
    Abort abort = abort(root.section("abort", "an experiment needs an abort section"));
    BlastRadius blastRadius = blastRadius(root.section("blast_radius",
        "an experiment needs a blast_radius section: how much the drill may break"));
    Optional<AlertmanagerSource> alertmanager = Optional.ofNullable(alertmanager(root.section("alertmanager", null)));
    Optional<ReceiverSpec> receiver = Optional.ofNullable(receiver(root.section("receiver", null)));
    Markers markers = markers(root.section("markers", null));
    root.rejectUnknownKeys(null);
    return context.clean()
        ? new Experiment(id, title, owner, prometheus, steadyState, hypothesis, method, abort, blastRadius,
            alertmanager, receiver, markers)
        : null;
  }

  private PrometheusSource prometheus(Node section) {
    if (section == null) {
      return null;
    }
    refuseSecrets(section, true, true);
    URI url = section.get("url").required("expected the http or https URL of Prometheus, such as http://127.0.0.1:9090")
        .url("http://127.0.0.1:9090", USE_CREDENTIAL_KEYS);
    Duration timeout = section.get("timeout").duration(true);
    HttpSettings http = http(section, url, "PROM_TOKEN");
    Node rulesNode = section.get("rules_url");
    URI rulesUrl = rulesNode.present() ? rulesNode.url("http://127.0.0.1:8880", USE_CREDENTIAL_KEYS) : null;
    PrometheusSource.Intervals intervals = new PrometheusSource.Intervals(
        section.get("scrape_interval").duration(true), section.get("evaluation_interval").duration(true),
        section.get("query_offset").duration(false));
    section.rejectUnknownKeys(null);
    return context.clean()
        ? new PrometheusSource(url, timeout, http, Optional.ofNullable(rulesUrl), intervals)
        : null;
  }

  /**
   * The HTTP settings every client section shares: headers (values that are not secret), a bearer
   * token or basic auth (secrets named, never written), and TLS (only for an https URL).
   */
  private HttpSettings http(Node section, URI url, String exampleVariable) {
    TokenSource token = envOrFile(section, "bearer_token", exampleVariable);
    Map<String, String> headers = headers(section.get("headers"));
    Node basicNode = section.get("basic_auth");
    BasicAuth basicAuth = basicAuth(section.section("basic_auth", null), exampleVariable.replace("_TOKEN", "_PASSWORD"));
    if (basicNode.present() && token != TokenSource.none()) {
      basicNode.problem("expected basic_auth or a bearer token (bearer_token_env, bearer_token_file), not both");
    }
    Node tlsNode = section.get("tls");
    Tls tls = tls(section.section("tls", null));
    if (tlsNode.present() && url != null && !"https".equalsIgnoreCase(url.getScheme())) {
      tlsNode.problem("tls applies to an https URL; expected url to start with https:// beside tls");
    }
    if (!context.clean()) {
      return null;
    }
    return new HttpSettings(headers, token.secret(), Optional.ofNullable(basicAuth), Optional.ofNullable(tls));
  }

  private Map<String, String> headers(Node node) {
    Map<String, String> headers = new LinkedHashMap<>();
    Map<String, Node> members = node.members();
    for (Map.Entry<String, Node> member : members == null ? Map.<String, Node>of().entrySet() : members.entrySet()) {
      String name = member.getKey();
      Node value = member.getValue();
      String lower = name.toLowerCase(Locale.ROOT);
      if (CREDENTIAL_HEADERS.contains(lower) || SECRET_HEADER.matcher(name).matches()) {
        value.problem("secrets are refused in an experiment file, and headers are for values that are not secret,"
            + " such as X-Scope-OrgID; for credentials " + USE_CREDENTIAL_KEYS);
      } else if (!HEADER_NAME.matcher(name).matches()) {
        value.problem("expected a header name of letters, digits and '-', such as X-Scope-OrgID");
      } else if (RESTRICTED_HEADERS.contains(lower)) {
        value.problem("firedrill's HTTP client sets " + name + " itself; expected another header, such as X-Scope-OrgID");
      } else if (!value.present() || !value.json.isValueNode()) {
        value.problem("expected a header value such as tenant-1");
      } else if (value.json.asText().chars().anyMatch(c -> c < 0x20 && c != '\t' || c == 0x7f)) {
        value.problem("expected a header value on one line, without control characters");
      } else {
        headers.put(name, value.json.asText());
      }
    }
    return headers;
  }

  private BasicAuth basicAuth(Node section, String exampleVariable) {
    if (section == null) {
      return null;
    }
    refuseSecrets(section, Level.BASIC_AUTH, true);
    String username = section.get("username").required("basic_auth needs a username").text();
    if (username != null && username.contains(":")) {
      section.get("username").problem("expected a username without ':' (basic auth separates the password with it)");
    }
    TokenSource password = envOrFile(section, "password", exampleVariable);
    if (!section.get("password_env").present() && !section.get("password_file").present()) {
      section.problemAt("password_env", "missing; basic_auth needs password_env or password_file: where the password"
          + " is read from");
    }
    section.rejectUnknownKeys(null);
    return context.clean() ? new BasicAuth(username, password) : null;
  }

  private Tls tls(Node section) {
    if (section == null) {
      return null;
    }
    Path ca = section.get("ca_file").path();
    Node certNode = section.get("cert_file");
    Node keyNode = section.get("key_file");
    Path cert = certNode.path();
    Path key = keyNode.path();
    if (certNode.present() && !keyNode.present()) {
      section.problemAt("key_file", "missing; cert_file needs key_file: the client certificate's private key (PEM)");
    } else if (keyNode.present() && !certNode.present()) {
      section.problemAt("cert_file", "missing; key_file needs cert_file: the client certificate (PEM)");
    }
    String serverName = section.get("server_name").text();
    Boolean insecure = section.get("insecure_skip_verify").bool();
    section.rejectUnknownKeys(null);
    return context.clean()
        ? new Tls(Optional.ofNullable(ca), Optional.ofNullable(cert), Optional.ofNullable(key),
            Optional.ofNullable(serverName), Boolean.TRUE.equals(insecure))
        : null;
  }

  /**
   * Refuses keys that look like secrets anywhere under the node, without ever showing their values.
   * {@code client}: a section firedrill opens connections with, where basic_auth's password keys
   * are allowed and headers are checked on their own.
   */
  private void refuseSecrets(Node node, boolean top, boolean client) {
    refuseSecrets(node, top ? Level.TOP : Level.BELOW, client);
  }

  private enum Level { TOP, BASIC_AUTH, BELOW }

  private void refuseSecrets(Node node, Level level, boolean client) {
    if (node.json == null || !node.json.isContainerNode()) {
      return;
    }
    if (node.json.isArray()) {
      node.list().forEach(item -> refuseSecrets(item, Level.BELOW, client));
      return;
    }
    for (var names = node.json.fieldNames(); names.hasNext(); ) {
      String key = names.next();
      boolean token = level == Level.TOP && (key.equals("bearer_token_env") || key.equals("bearer_token_file"));
      boolean basic = client && level == Level.TOP && key.equals("basic_auth");
      boolean password = level == Level.BASIC_AUTH && (key.equals("password_env") || key.equals("password_file"));
      if (client && level == Level.TOP && key.equals("headers")) {
        continue; // headers(): a credential header gets its own message
      }
      Node child = new Node(context, node.pointer + "/" + SourceTree.escape(key), node.json.get(key));
      if (basic) {
        continue; // basicAuth() checks its own keys, on the node that reports its unknown ones
      }
      if (!token && !password && SECRET.matcher(key).matches()) {
        node.problemAt(key, "secrets are refused in an experiment file; " + (level == Level.BASIC_AUTH
            ? USE_PASSWORD_KEYS : client ? USE_CREDENTIAL_KEYS : USE_TOKEN_KEYS));
        node.claim(key);
      } else {
        refuseSecrets(child, Level.BELOW, client);
      }
    }
  }

  private SteadyState steadyState(Node section) {
    if (section == null) {
      return null;
    }
    Duration interval = section.get("interval").duration(true);
    Node slisNode = section.get("slis");
    List<Node> items = slisNode.list();
    if (items != null && items.isEmpty()) {
      slisNode.problem("missing; a steady state is measured, not assumed: list at least one SLI");
    }
    List<Sli> slis = new ArrayList<>();
    for (Node item : items == null ? List.<Node>of() : items) {
      Sli sli = sli(item.object());
      if (sli != null) {
        slis.add(sli);
      }
    }
    section.rejectUnknownKeys(null);
    return context.clean() ? new SteadyState(interval, slis) : null;
  }

  private Sli sli(Node item) {
    if (item == null) {
      return null;
    }
    Node nameNode = item.get("name").required("expected a name such as error_ratio");
    String name = nameNode.text(SLI_NAME,
        "expected a name of letters, digits and '_' that does not start with a digit, such as error_ratio");
    String written = nameNode.present() && nameNode.json.isTextual() ? nameNode.json.asText() : null;
    if (written != null && !sliNames.add(written)) {
      nameNode.problem("duplicate SLI name " + Node.quote(written) + "; SLI names must be unique");
    }
    String query = item.get("query").required("expected a PromQL query").text();
    Node maxNode = item.get("max");
    Node minNode = item.get("min");
    Double max = maxNode.number();
    Double min = minNode.number();
    if (!maxNode.present() && !minNode.present()) {
      item.problemAt("max", "missing; an SLI needs max, min or both");
    }
    if (min != null && max != null && min > max) {
      minNode.problem("expected min <= max, got min " + minNode.raw() + " above max " + maxNode.raw());
    }
    Missing missing = missing(item.get("missing"));
    item.rejectUnknownKeys(null);
    return context.clean() ? new Sli(name, query, optional(min), optional(max), missing) : null;
  }

  private static Missing missing(Node node) {
    String value = node.choice("value", MISSING, text -> text.toLowerCase(Locale.ROOT));
    return value == null ? null : Missing.valueOf(value.toUpperCase(Locale.ROOT));
  }

  /** {@code routable}: the file says where routing can be read (Alertmanager or firedrill's receiver). */
  private Hypothesis hypothesis(Node section, boolean routable) {
    if (section == null) {
      return new Hypothesis(null, null);
    }
    String description = section.get("description").text();
    Duration recovery = section.get("recovery").duration(false);
    List<AlertExpectation> alerts = new ArrayList<>();
    List<Node> items = section.get("alerts").list();
    for (Node item : items == null ? List.<Node>of() : items) {
      AlertExpectation expectation = alertExpectation(item.object(), routable);
      if (expectation != null) {
        alerts.add(expectation);
      }
    }
    section.rejectUnknownKeys(null);
    return new Hypothesis(description, recovery, alerts);
  }

  private AlertExpectation alertExpectation(Node item, boolean routable) {
    if (item == null) {
      return null;
    }
    // Prometheus 3 takes any UTF-8 alert and label name; only an empty one (or broken text) is refused.
    String alert = item.get("alert").required("expected the name of an alerting rule, such as CheckoutErrorBudgetBurn")
        .text(UTF8_NAME, "expected an alert name of valid UTF-8 text, such as CheckoutErrorBudgetBurn");
    Map<String, String> matchers = new LinkedHashMap<>();
    Map<String, Node> members = item.get("matchers").members();
    for (Map.Entry<String, Node> member : members == null ? Map.<String, Node>of().entrySet() : members.entrySet()) {
      if (member.getKey().isEmpty() || !UTF8_NAME.matcher(member.getKey()).matches()) {
        member.getValue().problem("expected a non-empty label name of valid UTF-8 text, such as service");
      }
      String value = member.getValue().json.isValueNode() ? member.getValue().json.asText() : null;
      if (value == null) {
        member.getValue().problem("expected a label value such as checkout");
      } else {
        matchers.put(member.getKey(), value);
      }
    }
    String expect = item.get("expect").choice("expectation", EXPECT, text -> text.toLowerCase(Locale.ROOT));
    Duration within = item.get("within")
        .required("expected how long after injection the alert may take, such as 2m").duration(true);
    Node receiverNode = item.get("receiver");
    String receiver = receiverNode.text();
    if (receiver != null && !routable) {
      receiverNode.problem("expected alertmanager.url or receiver.listen: routing is read from Alertmanager's "
          + "/api/v2/alerts or from the webhooks firedrill receives");
    }
    String runbook = item.get("runbook_url").text();
    String dashboard = item.get("dashboard").text();
    Boolean checkLinks = item.get("check_links").bool();
    item.rejectUnknownKeys(null);
    if (!context.clean()) {
      return null;
    }
    return new AlertExpectation(alert, matchers,
        expect == null ? null : AlertExpectation.Expect.valueOf(expect.toUpperCase(Locale.ROOT)), within,
        Optional.ofNullable(receiver), Optional.ofNullable(runbook), Optional.ofNullable(dashboard),
        Boolean.TRUE.equals(checkLinks));
  }

  private AlertmanagerSource alertmanager(Node section) {
    if (section == null) {
      return null;
    }
    refuseSecrets(section, true, true);
    URI url = section.get("url").required("expected the http or https URL of Alertmanager, such as http://127.0.0.1:9093")
        .url("http://127.0.0.1:9093", USE_CREDENTIAL_KEYS);
    Duration timeout = section.get("timeout").duration(true);
    HttpSettings http = http(section, url, "AM_TOKEN");
    section.rejectUnknownKeys(null);
    return context.clean() ? new AlertmanagerSource(url, timeout, http) : null;
  }

  private ReceiverSpec receiver(Node section) {
    if (section == null) {
      return null;
    }
    refuseSecrets(section, true, false);
    String listen = section.get("listen").required("expected where firedrill's webhook receiver listens, such as 127.0.0.1:19101")
        .text(LISTEN, "expected HOST:PORT with an IP address or localhost, such as 127.0.0.1:19101");
    TokenSource token = envOrFile(section, "bearer_token", "RECEIVER_TOKEN");
    Integer maxPayload = section.get("max_payload").integer(1024);
    section.rejectUnknownKeys(null);
    return context.clean() ? new ReceiverSpec(listen, token, maxPayload == null ? 0 : maxPayload) : null;
  }

  private Markers markers(Node section) {
    if (section == null) {
      return Markers.none();
    }
    Optional<GrafanaTarget> grafana = Optional.ofNullable(grafana(section.section("grafana", null)));
    Optional<MetricsExport> metrics = Optional.ofNullable(metricsExport(section.section("metrics", null)));
    section.rejectUnknownKeys(null);
    return new Markers(grafana, metrics);
  }

  private GrafanaTarget grafana(Node section) {
    if (section == null) {
      return null;
    }
    refuseSecrets(section, true, true);
    URI url = section.get("url").required("expected the http or https URL of Grafana, such as http://127.0.0.1:3000")
        .url("http://127.0.0.1:3000", USE_CREDENTIAL_KEYS);
    Node uidNode = section.get("dashboard_uid");
    String dashboardUid = uidNode.text(DASHBOARD_UID, "expected a dashboard UID of letters, digits, '-' and '_', such as firedrill-lab");
    Node panelNode = section.get("panel_id");
    Integer panelId = panelNode.integer(1);
    if (panelNode.present() && !uidNode.present()) {
      panelNode.problem("expected dashboard_uid beside panel_id: a panel annotation belongs to a dashboard");
    }
    Duration timeout = section.get("timeout").duration(true);
    HttpSettings http = http(section, url, "GRAFANA_TOKEN");
    section.rejectUnknownKeys(null);
    return context.clean()
        ? new GrafanaTarget(url, Optional.ofNullable(dashboardUid), Optional.ofNullable(panelId), http, timeout)
        : null;
  }

  private MetricsExport metricsExport(Node section) {
    if (section == null) {
      return null;
    }
    refuseSecrets(section, false, false);
    Node listenNode = section.get("listen");
    String listen = listenNode.text(LISTEN, "expected HOST:PORT with an IP address or localhost, such as 127.0.0.1:19466");
    Duration scrapeWait = section.get("scrape_wait").duration(false);
    Node pushNode = section.get("pushgateway");
    URI pushgateway = pushNode.present()
        ? pushNode.url("http://127.0.0.1:9091", "firedrill pushes to the Pushgateway without credentials")
        : null;
    if (!listenNode.present() && !pushNode.present()) {
      section.problem("expected listen (an endpoint for Prometheus to scrape), pushgateway, or both");
    }
    section.rejectUnknownKeys(null);
    return context.clean()
        ? new MetricsExport(Optional.ofNullable(listen), scrapeWait, Optional.ofNullable(pushgateway))
        : null;
  }

  /** {@code PREFIX_env} or {@code PREFIX_file}, never both; none when neither is given. */
  private TokenSource envOrFile(Node section, String prefix, String exampleVariable) {
    Node env = section.get(prefix + "_env");
    Node file = section.get(prefix + "_file");
    String variable = env.variable(exampleVariable);
    Path path = file.path();
    if (env.present() && file.present()) {
      file.problem("expected " + prefix + "_env or " + prefix + "_file, not both");
    }
    return variable != null ? new TokenSource.FromEnv(variable)
        : path != null ? new TokenSource.FromFile(path) : TokenSource.none();
  }

  private Method method(Node section) {
    if (section == null) {
      return null;
    }
    Duration duration = section.get("duration").required("expected how long the faults stay on, such as 10m")
        .duration(true);
    Node faultsNode = section.get("faults");
    List<Node> items = faultsNode.list();
    if (items != null && items.isEmpty()) {
      faultsNode.problem("missing; a drill needs at least one fault, such as process-kill or cpu-burn");
    }
    List<FaultSpec> faults = new ArrayList<>();
    for (Node item : items == null ? List.<Node>of() : items) {
      Node entry = item.object();
      FaultSpec fault = entry == null ? null : faultReader.read(entry);
      if (fault != null) {
        faults.add(fault);
      }
    }
    section.rejectUnknownKeys(null);
    return context.clean() ? new Method(duration, faults) : null;
  }

  private Abort abort(Node section) {
    if (section == null) {
      return null;
    }
    List<AbortRule> rules = new ArrayList<>();
    List<Node> items = section.get("rules").list();
    for (Node item : items == null ? List.<Node>of() : items) {
      AbortRule rule = rule(item.object());
      if (rule != null) {
        rules.add(rule);
      }
    }
    BurnRateGuard burnRate = burnRate(section.section("burn_rate", null));
    Integer probeErrors = section.get("probe_errors").integer(1);
    Path abortFile = section.get("abort_file").path();
    section.rejectUnknownKeys(null);
    return context.clean()
        ? new Abort(rules, Optional.ofNullable(burnRate),
            probeErrors == null ? Abort.DEFAULT_PROBE_ERRORS : probeErrors, Optional.ofNullable(abortFile))
        : null;
  }

  private AbortRule rule(Node item) {
    if (item == null) {
      return null;
    }
    Node sliNode = item.get("sli").required("an abort rule needs the name of the SLI it watches");
    String sli = sliNode.text();
    if (sli != null && !sliNames.isEmpty() && !sliNames.contains(sli)) {
      sliNode.problem("no SLI named " + Node.quote(sli) + " in steady_state; "
          + Node.suggest(sli, sliNames, "the SLIs are: "));
    }
    Node above = item.get("above");
    Node below = item.get("below");
    Double aboveValue = above.number();
    Double belowValue = below.number();
    if (above.present() && below.present()) {
      below.problem("expected above or below, not both");
    } else if (!above.present() && !below.present()) {
      item.problemAt("above", "missing; an abort rule needs above or below: the threshold that stops the drill");
    }
    Integer consecutive = item.get("for").integer(1);
    item.rejectUnknownKeys(null);
    if (!context.clean()) {
      return null;
    }
    return new AbortRule(sli, aboveValue != null ? AbortRule.Direction.ABOVE : AbortRule.Direction.BELOW,
        aboveValue != null ? aboveValue : belowValue, consecutive == null ? 1 : consecutive);
  }

  private BurnRateGuard burnRate(Node section) {
    if (section == null) {
      return null;
    }
    Node objectiveNode = section.get("objective").required("expected the SLO objective, such as 0.999 or \"99.9%\"");
    Double objective = objectiveNode.fraction();
    if (objective != null && !(objective > 0 && objective < 1)) {
      objective = objectiveNode.fail("expected an objective strictly between 0 and 1, such as 0.999 or \"99.9%\"");
    }
    Duration window = section.get("window").duration(true);
    String errorRatio = section.get("error_ratio").required("expected a PromQL query for the error ratio").text();
    Node maxNode = section.get("max").required("expected the highest burn rate allowed, such as 14.4");
    Double max = maxNode.number();
    if (max != null && max <= 0) {
      max = maxNode.fail("expected a burn rate greater than 0, such as 14.4");
    }
    Missing missing = missing(section.get("missing"));
    String remaining = section.get("remaining_budget").text();
    section.rejectUnknownKeys(null);
    return context.clean()
        ? new BurnRateGuard(objective, window, errorRatio, max, missing, Optional.ofNullable(remaining))
        : null;
  }

  private BlastRadius blastRadius(Node section) {
    if (section == null) {
      return null;
    }
    Double trafficShare = section.get("traffic_share")
        .required("expected the share of traffic the faults may touch, such as 0.05 or \"5%\"").share();
    Duration maxDuration = section.get("max_duration").required("expected the longest the drill may run, such as 15m")
        .duration(true);
    Double budgetCeiling = section.get("budget_ceiling").share();
    Integer maxProcesses = section.get("max_processes").integer(1);
    Integer maxWorkers = section.get("max_workers").integer(1);
    section.rejectUnknownKeys(null);
    return context.clean()
        ? new BlastRadius(trafficShare, maxDuration,
            budgetCeiling == null ? BlastRadius.DEFAULT_BUDGET_CEILING : budgetCeiling,
            maxProcesses == null ? BlastRadius.DEFAULT_MAX_PROCESSES : maxProcesses,
            maxWorkers == null ? BlastRadius.DEFAULT_MAX_WORKERS : maxWorkers)
        : null;
  }

  private static OptionalDouble optional(Double value) {
    return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
  }
}
