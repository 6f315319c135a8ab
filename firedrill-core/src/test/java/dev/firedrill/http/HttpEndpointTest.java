package dev.firedrill.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.experiment.TokenSource;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Settings to the headers of a request: what each key sends, when secrets are read, and that they
 * stay out of messages.
 */
class HttpEndpointTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  @TempDir Path dir;

  private static HttpSettings settings(
      Map<String, String> headers, Optional<Secret> token, Optional<BasicAuth> basic) {
    return new HttpSettings(headers, token, basic, Optional.empty());
  }

  @Test
  void headersThenABearerTokenFromTheEnvironment() throws HttpSettingsException {
    HttpEndpoint endpoint =
        HttpEndpoint.open(
            "prometheus",
            settings(
                Map.of("X-Scope-OrgID", "tenant-1"),
                Optional.of(new TokenSource.FromEnv("PROM_TOKEN")),
                Optional.empty()),
            TIMEOUT,
            Map.of("PROM_TOKEN", " abc "));

    assertThat(endpoint.headers())
        .containsExactly(
            Map.entry("X-Scope-OrgID", "tenant-1"), Map.entry("Authorization", "Bearer abc"));
    HttpRequest request =
        endpoint.authorize(HttpRequest.newBuilder(URI.create("http://127.0.0.1:9/"))).build();
    assertThat(request.headers().firstValue("X-Scope-OrgID")).contains("tenant-1");
    assertThat(request.headers().firstValue("Authorization")).contains("Bearer abc");
  }

  @Test
  void basicAuthIsTheUserAndPasswordInBase64() throws Exception {
    Path password = dir.resolve("password");
    Files.writeString(password, "pa:ss wörd\n");
    HttpEndpoint endpoint =
        HttpEndpoint.open(
            "prometheus",
            settings(
                Map.of(),
                Optional.empty(),
                Optional.of(new BasicAuth("drill", new TokenSource.FromFile(password)))),
            TIMEOUT,
            Map.of());

    String expected =
        Base64.getEncoder().encodeToString("drill:pa:ss wörd".getBytes(StandardCharsets.UTF_8));
    assertThat(endpoint.headers()).containsExactly(Map.entry("Authorization", "Basic " + expected));
    assertThat(endpoint.redact("echoed Basic " + expected + " and pa:ss wörd"))
        .isEqualTo("echoed Basic <redacted> and <redacted>");
  }

  @Test
  void noSettingsSendNoHeaders() throws HttpSettingsException {
    assertThat(HttpEndpoint.open("alertmanager", HttpSettings.none(), TIMEOUT, Map.of()).headers())
        .isEmpty();
  }

  @Test
  void aTokenFileIsReadAgainForEveryRequestSoARotatedTokenIsUsed() throws Exception {
    Path token = dir.resolve("token");
    Files.writeString(token, "first-token\n");
    HttpEndpoint endpoint =
        HttpEndpoint.open(
            "prometheus",
            HttpSettings.bearer(Optional.of(new TokenSource.FromFile(token))),
            TIMEOUT,
            Map.of());
    assertThat(endpoint.headers()).containsEntry("Authorization", "Bearer first-token");

    Files.writeString(token, "second-token\n");

    assertThat(endpoint.headers()).containsEntry("Authorization", "Bearer second-token");
    assertThat(endpoint.redact("first-token second-token")).isEqualTo("<redacted> <redacted>");
  }

  @Test
  void aPasswordFileIsReadAgainForEveryRequest() throws Exception {
    Path password = dir.resolve("password");
    Files.writeString(password, "one");
    HttpEndpoint endpoint =
        HttpEndpoint.open(
            "markers.grafana",
            settings(
                Map.of(),
                Optional.empty(),
                Optional.of(new BasicAuth("admin", new TokenSource.FromFile(password)))),
            TIMEOUT,
            Map.of());
    Files.writeString(password, "two");

    assertThat(endpoint.headers())
        .containsEntry(
            "Authorization",
            "Basic "
                + Base64.getEncoder().encodeToString("admin:two".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void aMissingSecretStopsTheOpeningAndIsNamedByItsPlace() {
    assertThatThrownBy(
            () ->
                HttpEndpoint.open(
                    "alertmanager",
                    HttpSettings.bearer(Optional.of(new TokenSource.FromEnv("AM_TOKEN"))),
                    TIMEOUT,
                    Map.of()))
        .isInstanceOf(HttpSettingsException.class)
        .hasMessage(
            "alertmanager bearer token (env AM_TOKEN): environment variable AM_TOKEN is not set"
                + " (expected a bearer token)");
    Path missing = dir.resolve("nothing");
    assertThatThrownBy(
            () ->
                HttpEndpoint.open(
                    "prometheus",
                    settings(
                        Map.of(),
                        Optional.empty(),
                        Optional.of(new BasicAuth("drill", new TokenSource.FromFile(missing)))),
                    TIMEOUT,
                    Map.of()))
        .hasMessage(
            "prometheus basic_auth password (file "
                + missing
                + "): "
                + missing
                + ": password file does not exist (expected a password)");
  }

  @Test
  void aSecretThatTurnsBadAfterOpeningFailsTheRequestWithoutShowingIt() throws Exception {
    Path token = dir.resolve("token");
    Files.writeString(token, "good-token");
    HttpEndpoint endpoint =
        HttpEndpoint.open(
            "prometheus",
            HttpSettings.bearer(Optional.of(new TokenSource.FromFile(token))),
            TIMEOUT,
            Map.of());
    Files.writeString(token, "bad\ntoken-s3cr3t");

    assertThatThrownBy(endpoint::headers)
        .hasMessage(
            "prometheus bearer token (file "
                + token
                + ") is blank or holds a line break or control"
                + " character (expected one line of text)")
        .message()
        .doesNotContain("s3cr3t");
  }

  @Test
  void aBearerTokenAndBasicAuthExcludeEachOther() {
    assertThatThrownBy(
            () ->
                new HttpSettings(
                    Map.of(),
                    Optional.of(Secret.given("t")),
                    Optional.of(new BasicAuth("u", Secret.given("p"))),
                    Optional.empty()))
        .hasMessage("a bearer token and basic_auth exclude each other (expected one of them)");
  }

  @Test
  void describeAuthNamesPlacesNeverValues() {
    assertThat(
            HttpSettings.bearer(Optional.of(new TokenSource.FromEnv("PROM_TOKEN"))).describeAuth())
        .isEqualTo("bearer token from env PROM_TOKEN");
    assertThat(HttpSettings.bearer(Optional.of(Secret.given("s3cr3t"))).describeAuth())
        .isEqualTo("bearer token from given")
        .doesNotContain("s3cr3t");
    assertThat(HttpSettings.none().describeAuth()).isEqualTo("none");
  }
}
