package dev.firedrill.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.firedrill.net.UrlCredentials;
import dev.firedrill.time.Durations;
import dev.firedrill.yaml.NearestName;
import dev.firedrill.yaml.Problem;
import dev.firedrill.yaml.SourceTree;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A place in the experiment file being read: a JSON pointer and the value there (null when absent).
 * Conversions return null when the value is absent or wrong; a wrong value is recorded as a
 * problem. An object node remembers the keys it was asked for, to report the others.
 *
 * <p>Public for the fault kinds ({@code dev.firedrill.fault.FaultKind}), which read their own entry
 * of {@code method.faults}; they live above this package, since they also build the faults.
 */
public final class Node {

  /** What all nodes of one file share: where things are, and what is wrong so far. */
  static final class Context {
    final String file;
    final Map<String, SourceTree.Position> positions;
    final List<Problem> problems;

    /** Whether the nodes are an experiment file's, whose keys {@link ExperimentFields} declares. */
    final boolean declared;

    Context(String file, Map<String, SourceTree.Position> positions, List<Problem> problems) {
      this(file, positions, problems, true);
    }

    Context(
        String file,
        Map<String, SourceTree.Position> positions,
        List<Problem> problems,
        boolean declared) {
      this.file = file;
      this.positions = positions;
      this.problems = problems;
      this.declared = declared;
    }

    /**
     * Records a problem at the pointer, or at its nearest ancestor when it is absent from the file.
     */
    void add(String pointer, String message) {
      String at = pointer;
      while (!positions.containsKey(at)) {
        at = at.substring(0, at.lastIndexOf('/'));
      }
      SourceTree.Position position = positions.get(at);
      problems.add(new Problem(file, pointer, message, position.line(), position.column()));
    }

    boolean clean() {
      return problems.isEmpty();
    }
  }

  static final String DURATION = Durations.EXPECTED;

  /** What every share in the file must be. */
  public static final String SHARE = "expected a share in (0, 1], such as 0.05 or \"5%\"";

  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern NUMBER =
      Pattern.compile("[-+]?(\\d++(?:\\.\\d*+)?|\\.\\d++)([eE][-+]?\\d++)?");
  private static final Pattern PERCENT =
      Pattern.compile("\\s*([-+]?(?:\\d++(?:\\.\\d*+)?|\\.\\d++))\\s*%\\s*");

  /** Values under these pointers are never echoed: they may be a secret put in the wrong place. */
  private static final Pattern QUIET =
      Pattern.compile(
          "/prometheus/(?!url$|timeout$).*"
              + "|/(alertmanager|markers/grafana)/(bearer_token_|basic_auth|headers|tls).*");

  final Context context;
  final String pointer;

  /** The value, or null when absent. YAML {@code key:} with no value is a null node, and absent. */
  final JsonNode json;

  private final Set<String> keys = new LinkedHashSet<>();

  Node(Context context, String pointer, JsonNode json) {
    this.context = context;
    this.pointer = pointer;
    this.json = json;
  }

  public boolean present() {
    return json != null && !json.isNull();
  }

  /** Whether nothing is wrong so far in the whole file: a reader builds its record only then. */
  public boolean clean() {
    return context.clean();
  }

  /** The member {@code key} of this object; asking for it makes it a known key here. */
  public Node get(String key) {
    if (context.declared) {
      ExperimentFields.sectionAt(pointer)
          .filter(section -> ExperimentFields.field(section, key).isEmpty())
          .ifPresent(
              section -> {
                // A programming error, not the file's: the schema would not know this key.
                throw new IllegalStateException(
                    "the loader reads "
                        + pointer
                        + "/"
                        + key
                        + ", which ExperimentFields does not declare in section "
                        + section);
              });
    }
    keys.add(key);
    JsonNode value = json != null && json.isObject() ? json.get(key) : null;
    return new Node(context, pointer + "/" + SourceTree.escape(key), value);
  }

  /**
   * A section: null and a problem when absent and {@code whyRequired} is given, null when absent
   * and optional; a key without a value is an empty section.
   */
  Node section(String key, String whyRequired) {
    Node node = get(key);
    if (node.json == null) {
      if (whyRequired != null) {
        node.declaredRequired();
        node.problem("missing; " + whyRequired);
      }
      return null;
    }
    return node.object();
  }

  /** This node, after recording "missing; why" when it is absent. */
  public Node required(String why) {
    declaredRequired();
    if (!present()) {
      problem("missing; " + why);
    }
    return this;
  }

  /** Refuses to require a key {@link ExperimentFields} declares optional: the schema would not. */
  private void declaredRequired() {
    if (!context.declared || pointer.isEmpty()) {
      return;
    }
    int slash = pointer.lastIndexOf('/');
    String key = pointer.substring(slash + 1);
    ExperimentFields.sectionAt(pointer.substring(0, slash))
        .flatMap(section -> ExperimentFields.field(section, key))
        .filter(field -> !field.required())
        .ifPresent(
            field -> {
              throw new IllegalStateException(
                  "the loader requires " + pointer + ", which ExperimentFields declares optional");
            });
  }

  public void problem(String message) {
    context.add(pointer, message);
  }

  /** Records a problem about the member {@code key} of this object. */
  void problemAt(String key, String message) {
    context.add(pointer + "/" + SourceTree.escape(key), message);
  }

  /** Records "expected ..., got VALUE" and returns null. */
  public <T> T fail(String expected) {
    problem(expected + ", got " + describe());
    return null;
  }

  public Node object() {
    if (json != null && json.isNull()) {
      return new Node(context, pointer, JsonNodeFactory.instance.objectNode());
    }
    return json != null && json.isObject() ? this : fail("expected a mapping");
  }

  /** The elements; empty when absent; null when not a list. */
  public List<Node> list() {
    List<Node> items = new ArrayList<>();
    if (!present()) {
      return items;
    }
    if (!json.isArray()) {
      return fail("expected a list");
    }
    for (int i = 0; i < json.size(); i++) {
      items.add(new Node(context, pointer + "/" + i, json.get(i)));
    }
    return items;
  }

  public String text() {
    if (!present()) {
      return null;
    }
    if (!json.isTextual()) {
      return fail("expected a string");
    }
    return json.asText().isBlank() ? fail("expected a non-empty string") : json.asText();
  }

  /** A string matching {@code pattern}. */
  public String text(Pattern pattern, String expected) {
    String text = text();
    return text == null || pattern.matcher(text).matches() ? text : fail(expected);
  }

  /** The name of an environment variable (where a secret is read from), such as {@code example}. */
  public String variable(String example) {
    String text = json != null && json.isTextual() ? json.asText() : null;
    if (text != null && looksLikeToken(text)) {
      // A valid name by its letters, but a token by its looks: never echo it.
      problem(
          "expected the name of an environment variable such as "
              + example
              + ", got a string that looks like a token (not shown; put the token in the"
              + " variable and the variable's name here)");
      return null;
    }
    return text(ENV_NAME, "expected the name of an environment variable such as " + example);
  }

  /**
   * A token rather than a variable's name: a known token prefix, or long with lower-case letters
   * and digits mixed, as generated secrets are and variables' names (PROM_TOKEN) are not.
   */
  static boolean looksLikeToken(String text) {
    if (TOKEN_PREFIX.matcher(text).lookingAt()) {
      return true;
    }
    return text.length() >= 24
        && text.chars().anyMatch(Character::isLowerCase)
        && text.chars().anyMatch(Character::isDigit);
  }

  private static final Pattern TOKEN_PREFIX =
      Pattern.compile("(ghp|gho|ghs|ghu|ghr|github_pat|glpat|xox[abpr]|sk_live|sk_test)_");

  public Double number() {
    Double value = json == null ? null : plainNumber();
    return value != null || !present() ? value : fail("expected a number");
  }

  /** A number, or a percentage such as {@code "5%"} divided by 100. */
  public Double fraction() {
    BigDecimal percent = percentSign();
    return percent != null ? Double.valueOf(percent.movePointLeft(2).doubleValue()) : number();
  }

  /**
   * A share of what something touches: a fraction ({@code 0.2}) or a percentage string ({@code
   * "20%"}); a bare number above 1 is refused with the two readings it may have meant.
   */
  public Double share() {
    Double value = fraction();
    if (value == null || (value > 0 && value <= 1)) {
      return value;
    }
    if (!percentString() && value > 1 && value <= 100) {
      problem(
          SHARE
              + ", got "
              + raw()
              + "; did you mean \""
              + raw()
              + "%\" or "
              + Numbers.format(value / 100)
              + "?");
      return null;
    }
    return fail(SHARE);
  }

  /**
   * An http or https URL with a host, such as {@code example}. Credentials in it are refused
   * without echoing them; {@code credentialsHint} says where they go instead.
   */
  public URI url(String example, String credentialsHint) {
    String text = text();
    if (text == null) {
      return null;
    }
    URI uri;
    try {
      uri = new URI(text.strip());
    } catch (URISyntaxException e) {
      uri = null;
    }
    if (UrlCredentials.present(text)) {
      problem("credentials in the URL are refused; " + credentialsHint);
      return null;
    }
    if (uri == null
        || uri.getHost() == null
        || !("http".equalsIgnoreCase(uri.getScheme())
            || "https".equalsIgnoreCase(uri.getScheme()))) {
      return fail("expected an http or https URL such as " + example);
    }
    return uri;
  }

  /** Whether the value is a percentage string such as {@code "5%"}. */
  public boolean percentString() {
    return percentSign() != null;
  }

  public Boolean bool() {
    if (!present()) {
      return null;
    }
    return json.isBoolean() ? Boolean.valueOf(json.asBoolean()) : fail("expected true or false");
  }

  /**
   * The members of a mapping, each as a node of its own, all claimed; null when absent or not a
   * mapping. Public for fault kinds whose entries hold mappings of their own (pod labels).
   */
  public Map<String, Node> members() {
    if (!present() || object() == null) {
      return null;
    }
    Map<String, Node> members = new LinkedHashMap<>();
    for (Iterator<String> names = json.fieldNames(); names.hasNext(); ) {
      String key = names.next();
      claim(key);
      members.put(key, new Node(context, pointer + "/" + SourceTree.escape(key), json.get(key)));
    }
    return members;
  }

  /** A whole number of at least {@code min}. */
  public Integer integer(int min) {
    if (!present()) {
      return null;
    }
    Double value = plainNumber();
    if (value == null || value != Math.rint(value) || value < min || value > Integer.MAX_VALUE) {
      return fail("expected a whole number of at least " + min);
    }
    return value.intValue();
  }

  /** A duration written with a unit; {@code positive} refuses zero. */
  public Duration duration(boolean positive) {
    if (!present()) {
      return null;
    }
    if (json.isNumber()) {
      problem(DURATION + ", got " + describe() + " without a unit");
      return null;
    }
    if (!json.isTextual()) {
      return fail(DURATION);
    }
    Duration duration;
    try {
      duration = Durations.parse(json.asText());
    } catch (Durations.Invalid e) {
      // Prometheus's grammar: 30s1h is refused, and the hint says why (the plain "expected" would
      // not).
      problem(
          DURATION
              + ", got "
              + describe()
              + (e.hint().contains("out of range")
                  ? "; that is out of range (the largest duration allowed is 100y)"
                  : e.hint()));
      return null;
    }
    if (duration.compareTo(MAX_DURATION) > 0) {
      // Prometheus's 292 years overflow firedrill's sums (ttl + start, deadlines): no drill,
      // ttl or window needs more than a century.
      return fail("expected a duration of at most 100y (the largest allowed)");
    }
    return positive && duration.isZero() ? fail("expected a duration greater than 0") : duration;
  }

  /** The longest duration any key takes: 100 years. */
  public static final Duration MAX_DURATION = Duration.ofDays(36_500);

  /** The longest a client waits for one answer: a longer timeout is a typo or a hang. */
  public static final Duration MAX_TIMEOUT = Duration.ofHours(1);

  /** A client's {@code timeout}: a duration greater than 0 and at most {@link #MAX_TIMEOUT}. */
  public Duration timeout() {
    Duration timeout = duration(true);
    if (timeout != null && timeout.compareTo(MAX_TIMEOUT) > 0) {
      return fail("expected a timeout of at most 1h (the largest allowed)");
    }
    return timeout;
  }

  Path path() {
    String text = text();
    try {
      return text == null ? null : Path.of(text);
    } catch (InvalidPathException e) {
      return fail("expected a file path");
    }
  }

  /**
   * One of {@code names} (after {@code normalise}), as written in {@code names}; otherwise a
   * problem naming the nearest one, or all of them.
   */
  public String choice(String what, List<String> names, UnaryOperator<String> normalise) {
    if (!present()) {
      return null;
    }
    if (!json.isTextual()) {
      return fail("expected a " + what + ": one of " + String.join(", ", names));
    }
    String value = normalise.apply(json.asText().strip());
    if (names.contains(value)) {
      return value;
    }
    problem(
        "unknown "
            + what
            + " "
            + quote(json.asText())
            + "; "
            + suggest(value, names, "expected one of: "));
    return null;
  }

  /**
   * Records every key of this object nobody asked for; {@code hint} may explain a key, or return
   * null.
   */
  public void rejectUnknownKeys(Function<String, String> hint) {
    if (json == null || !json.isObject()) {
      return;
    }
    for (Iterator<String> names = json.fieldNames(); names.hasNext(); ) {
      String key = names.next();
      if (!keys.contains(key)) {
        String explained = hint == null ? null : hint.apply(key);
        problemAt(
            key,
            "unknown key; "
                + (explained != null ? explained : suggest(key, keys, "valid keys here: ")));
      }
    }
  }

  /** Marks a key as handled, so that it is not reported as unknown. */
  public void claim(String key) {
    keys.add(key);
  }

  static String suggest(String value, Collection<String> candidates, String otherwise) {
    return NearestName.suggest(value, candidates, otherwise);
  }

  /**
   * The value as a message shows it; nothing from under {@code /prometheus} except url and timeout.
   */
  String describe() {
    if (!present()) {
      return "nothing";
    }
    String kind =
        json.isObject()
            ? "a mapping"
            : json.isArray()
                ? "a list"
                : json.isTextual() ? "a string" : json.isNumber() ? "a number" : "a boolean";
    if (QUIET.matcher(pointer).matches() || json.isContainerNode()) {
      return kind;
    }
    return json.isTextual() ? quote(json.asText()) : json.asText();
  }

  static String quote(String text) {
    String shown = text.length() > 60 ? text.substring(0, 57) + "..." : text;
    return "\"" + shown.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }

  /**
   * The value as read (null when absent), for a kind that carries a foreign document whole, such as
   * a Kubernetes object: a copy, so the file's tree stays as it was.
   */
  public JsonNode tree() {
    return present() ? json.deepCopy() : null;
  }

  /** The original text of a scalar number, for messages. */
  public String raw() {
    return json == null ? "" : json.asText();
  }

  private Double plainNumber() {
    double value;
    if (json.isNumber()) {
      value = json.asDouble();
    } else if (json.isTextual() && NUMBER.matcher(json.asText().strip()).matches()) {
      value = Double.parseDouble(json.asText().strip());
    } else {
      return null;
    }
    return Double.isFinite(value) ? value : null;
  }

  private BigDecimal percentSign() {
    if (json == null || !json.isTextual()) {
      return null;
    }
    Matcher matcher = PERCENT.matcher(json.asText());
    return matcher.matches() ? new BigDecimal(matcher.group(1)) : null;
  }
}
