package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.testing.SecretScan;
import dev.firedrill.testing.StubHttpServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What the secrets-leak tests share, in-process ({@link SecretsLeakTest}) and against the packaged
 * jar ({@code EnvironmentSecretsLeakTest}): a recognisable value per credential, the consoles of
 * every command run, the Markdown, JUnit and HTML reports of each journal, and the one scan ({@link
 * SecretScan}) of every file under the given folders and every console for every value.
 */
final class LeakHunt {

  /** One answer for a stub with no paths: the queries, the rules and the alerts. */
  static final String HEALTHY =
      "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
          + "[{\"metric\":{},\"value\":[1700000000,\"0\"]}],"
          + "\"groups\":[{\"name\":\"checkout\",\"file\":\"checkout.yml\",\"interval\":1,"
          + "\"rules\":[{\"type\":\"alerting\",\"name\":\"CheckoutDown\",\"query\":\"up == 0\","
          + "\"duration\":0,\"labels\":{},\"annotations\":{},\"alerts\":[],\"health\":\"ok\","
          + "\"state\":\"inactive\"}]}],\"alerts\":[]}}";

  /** The user of every basic-auth credential; {@link SecretScan} looks for its base64 pair too. */
  static final String USER = "firedrill";

  /** How an experiment's client section takes its credential. */
  enum Form {
    BEARER_FILE("bearer_token_file: %s"),
    BASIC_FILE("basic_auth: {username: " + USER + ", password_file: %s}"),
    BEARER_ENV("bearer_token_env: %s"),
    BASIC_ENV("basic_auth: {username: " + USER + ", password_env: %s}");

    private final String yaml;

    Form(String yaml) {
      this.yaml = yaml;
    }

    /** The section's key, reading from {@code place} (a file or a variable). */
    String yaml(Object place) {
      return yaml.formatted(place);
    }

    /** The {@code Authorization} header a server gets for {@code secret}. */
    String header(String secret) {
      return this == BEARER_FILE || this == BEARER_ENV
          ? "Bearer " + secret
          : "Basic "
              + Base64.getEncoder()
                  .encodeToString((USER + ":" + secret).getBytes(StandardCharsets.UTF_8));
    }
  }

  private final Map<String, String> secrets = new LinkedHashMap<>();
  private final Map<String, String> console = new LinkedHashMap<>();

  /** The recognisable value of the credential {@code name}, the same on every call. */
  String secret(String name) {
    return secrets.computeIfAbsent(name, n -> "fd" + UUID.randomUUID().toString().replace("-", ""));
  }

  /** Keeps {@code text} for the scan as the console of {@code what}. */
  void console(String what, String text) {
    console.put(what, text);
  }

  void console(String what, CliRun run) {
    console.put(what + " stdout", run.out());
    console.put(what + " stderr", run.err());
  }

  Map<String, String> consoles() {
    return console;
  }

  /** Writes the Markdown, JUnit and HTML report of each journal, keeping what each printed. */
  void reports(List<Path> journals) {
    for (Path journal : journals) {
      for (String format : List.of("md", "junit", "html")) {
        CliRun report = CliRun.of("report", journal.toString(), "--format", format);
        assertThat(report.exit()).as(report.describe()).isZero();
        console("report " + format + " of " + journal.getFileName(), report);
      }
    }
  }

  /** Fails naming, per credential, every place under {@code roots} or on a console it shows. */
  void assertNowhere(List<Path> roots) {
    Map<String, List<String>> leaks = new LinkedHashMap<>();
    secrets.forEach(
        (name, value) -> {
          List<String> found = SecretScan.findings(value, roots, console);
          if (!found.isEmpty()) {
            leaks.put(name, found);
          }
        });
    assertThat(leaks).as("where each credential leaked; the consoles:%n%s", console).isEmpty();
  }

  /** Each backend got its credential ({@link #secret} of its name) in its form: it was read. */
  void assertReceived(Map<String, StubHttpServer> backends, Map<String, Form> forms) {
    backends.forEach(
        (name, backend) ->
            assertThat(backend.requests())
                .as("%s's credential reached it, so it was read", name)
                .anySatisfy(
                    r ->
                        assertThat(r.headers().get("authorization"))
                            .isEqualTo(forms.get(name).header(secret(name)))));
  }

  /** An error page quoting the header it refused, and the credential alone. */
  static String echo(String secret) {
    return "<html><body><h1>Denied</h1><p>Authorization: Bearer "
        + secret
        + "</p><p>unknown token "
        + secret
        + "</p></body></html>";
  }
}
