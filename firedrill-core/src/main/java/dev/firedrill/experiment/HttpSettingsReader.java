package dev.firedrill.experiment;

import dev.firedrill.http.BasicAuth;
import dev.firedrill.http.HttpSettings;
import dev.firedrill.http.Tls;
import dev.firedrill.yaml.SourceTree;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What every section naming a service shares: its HTTP settings (headers, a bearer token or basic
 * auth, TLS) and the refusal of secrets written into the file, whose values are never shown.
 */
final class HttpSettingsReader {

  private static final Pattern SECRET =
      Pattern.compile(
          "(?i).*(token|password|passwd|secret|api_?key|authorization|credential|basic_?auth).*");
  private static final String USE_TOKEN_KEYS = "use bearer_token_env or bearer_token_file";

  /**
   * For the clients firedrill opens (Prometheus, Alertmanager, Grafana), which also take basic
   * auth.
   */
  static final String USE_CREDENTIAL_KEYS =
      "use bearer_token_env, bearer_token_file or basic_auth (username with password_env or password_file)";

  private static final String USE_PASSWORD_KEYS = "use password_env or password_file";

  /** An HTTP header name (RFC 9110 token). */
  private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  /** Headers that carry credentials whatever their value. */
  private static final Pattern SECRET_HEADER =
      Pattern.compile(
          "(?i).*(token|password|passwd|secret|api[-_]?key|credential|cookie|authorization).*");

  private static final Set<String> CREDENTIAL_HEADERS =
      Set.of("authorization", "proxy-authorization", "cookie", "set-cookie");

  /** Headers the JDK's HTTP client sets itself and refuses to take. */
  private static final Set<String> RESTRICTED_HEADERS =
      Set.of("host", "connection", "content-length", "expect", "upgrade");

  private final Node.Context context;

  HttpSettingsReader(Node.Context context) {
    this.context = context;
  }

  /**
   * The HTTP settings every client section shares: headers (values that are not secret), a bearer
   * token or basic auth (secrets named, never written), and TLS (only for an https URL).
   */
  HttpSettings read(Node section, URI url, String exampleVariable) {
    TokenSource token = envOrFile(section, "bearer_token", exampleVariable);
    Map<String, String> headers = headers(section.get("headers"));
    Node basicNode = section.get("basic_auth");
    BasicAuth basicAuth =
        basicAuth(
            section.section("basic_auth", null), exampleVariable.replace("_TOKEN", "_PASSWORD"));
    if (basicNode.present() && token != TokenSource.none()) {
      basicNode.problem(
          "expected basic_auth or a bearer token (bearer_token_env, bearer_token_file), not both");
    }
    Node tlsNode = section.get("tls");
    Tls tls = tls(section.section("tls", null));
    if (tlsNode.present() && url != null && !"https".equalsIgnoreCase(url.getScheme())) {
      tlsNode.problem(
          "tls applies to an https URL; expected url to start with https:// beside tls");
    }
    if (!context.clean()) {
      return null;
    }
    return new HttpSettings(
        headers, token.secret(), Optional.ofNullable(basicAuth), Optional.ofNullable(tls));
  }

  private Map<String, String> headers(Node node) {
    Map<String, String> headers = new LinkedHashMap<>();
    Map<String, Node> members = node.members();
    for (Map.Entry<String, Node> member :
        members == null ? Map.<String, Node>of().entrySet() : members.entrySet()) {
      String name = member.getKey();
      Node value = member.getValue();
      String lower = name.toLowerCase(Locale.ROOT);
      if (CREDENTIAL_HEADERS.contains(lower) || SECRET_HEADER.matcher(name).matches()) {
        value.problem(
            "secrets are refused in an experiment file, and headers are for values that are not secret,"
                + " such as X-Scope-OrgID; for credentials "
                + USE_CREDENTIAL_KEYS);
      } else if (!HEADER_NAME.matcher(name).matches()) {
        value.problem("expected a header name of letters, digits and '-', such as X-Scope-OrgID");
      } else if (RESTRICTED_HEADERS.contains(lower)) {
        value.problem(
            "firedrill's HTTP client sets "
                + name
                + " itself; expected another header, such as X-Scope-OrgID");
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
      section
          .get("username")
          .problem("expected a username without ':' (basic auth separates the password with it)");
    }
    TokenSource password = envOrFile(section, "password", exampleVariable);
    if (!section.get("password_env").present() && !section.get("password_file").present()) {
      section.problemAt(
          "password_env",
          "missing; basic_auth needs password_env or password_file: where the password"
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
      section.problemAt(
          "key_file",
          "missing; cert_file needs key_file: the client certificate's private key (PEM)");
    } else if (keyNode.present() && !certNode.present()) {
      section.problemAt(
          "cert_file", "missing; key_file needs cert_file: the client certificate (PEM)");
    }
    String serverName = section.get("server_name").text();
    Boolean insecure = section.get("insecure_skip_verify").bool();
    section.rejectUnknownKeys(null);
    return context.clean()
        ? new Tls(
            Optional.ofNullable(ca),
            Optional.ofNullable(cert),
            Optional.ofNullable(key),
            Optional.ofNullable(serverName),
            Boolean.TRUE.equals(insecure))
        : null;
  }

  /**
   * Refuses keys that look like secrets anywhere under the node, without ever showing their values.
   * {@code client}: a section firedrill opens connections with, where basic_auth's password keys
   * are allowed and headers are checked on their own.
   */
  void refuseSecrets(Node node, boolean top, boolean client) {
    refuseSecrets(node, top ? Level.TOP : Level.BELOW, client);
  }

  private enum Level {
    TOP,
    BASIC_AUTH,
    BELOW
  }

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
      boolean token =
          level == Level.TOP && (key.equals("bearer_token_env") || key.equals("bearer_token_file"));
      boolean basic = client && level == Level.TOP && key.equals("basic_auth");
      boolean password =
          level == Level.BASIC_AUTH && (key.equals("password_env") || key.equals("password_file"));
      if (client && level == Level.TOP && key.equals("headers")) {
        continue; // headers(): a credential header gets its own message
      }
      Node child =
          new Node(context, node.pointer + "/" + SourceTree.escape(key), node.json.get(key));
      if (basic) {
        continue; // basicAuth() checks its own keys, on the node that reports its unknown ones
      }
      if (!token && !password && SECRET.matcher(key).matches()) {
        node.problemAt(
            key,
            "secrets are refused in an experiment file; "
                + (level == Level.BASIC_AUTH
                    ? USE_PASSWORD_KEYS
                    : client ? USE_CREDENTIAL_KEYS : USE_TOKEN_KEYS));
        node.claim(key);
      } else {
        refuseSecrets(child, Level.BELOW, client);
      }
    }
  }

  /** {@code PREFIX_env} or {@code PREFIX_file}, never both; none when neither is given. */
  TokenSource envOrFile(Node section, String prefix, String exampleVariable) {
    Node env = section.get(prefix + "_env");
    Node file = section.get(prefix + "_file");
    String variable = env.variable(exampleVariable);
    Path path = file.path();
    if (env.present() && file.present()) {
      file.problem("expected " + prefix + "_env or " + prefix + "_file, not both");
    }
    return variable != null
        ? new TokenSource.FromEnv(variable)
        : path != null ? new TokenSource.FromFile(path) : TokenSource.none();
  }
}
