package dev.firedrill.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Tokens with characters a header cannot carry are refused without being shown. */
class SecretLeakTest {

  private static final String TOKEN = "s3cr3t-token-abcdefghijklmnop";

  private static HttpEndpoint endpoint(String token) throws HttpSettingsException {
    return HttpEndpoint.open(
        "prometheus",
        HttpSettings.bearer(Optional.of(Secret.given(token))),
        Duration.ofSeconds(1),
        Map.of());
  }

  private static HttpRequest.Builder request() {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:9/"));
  }

  @Test
  void aZeroWidthSpaceInATokenIsRefusedWithoutShowingIt() throws Exception {
    assertThatThrownBy(() -> endpoint("s3cr3t-token\u200B-abcdefghijklmnop"))
        .isInstanceOf(HttpSettingsException.class)
        .hasMessageContaining("invisible character")
        .hasMessageNotContaining("s3cr3t");
  }

  @Test
  void aTokenAboveLatin1IsRefusedWithoutShowingIt() throws Exception {
    HttpEndpoint endpoint = endpoint("s3cr3t-token\u0142-abcdefghijklmnop");
    assertThatThrownBy(() -> endpoint.authorize(request()))
        .isInstanceOf(HttpSettingsException.class)
        .hasMessageContaining("not a valid HTTP header value")
        .hasMessageNotContaining("s3cr3t");
  }

  @Test
  void aTokenFilesByteOrderMarkIsNotPartOfTheToken() throws Exception {
    HttpEndpoint endpoint = endpoint("\uFEFF" + TOKEN);
    HttpRequest sent = endpoint.authorize(request()).build();
    assertThat(sent.headers().firstValue("Authorization")).contains("Bearer " + TOKEN);
    assertThat(endpoint.redact("echo \uFEFF" + TOKEN)).isEqualTo("echo <redacted>");
  }
}
