package dev.firedrill.marker.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** Grouping-key paths as the Pushgateway's README describes them. */
class PushgatewayGroupTest {

  @Test
  void aPlainIdIsItsOwnPathSegment() {
    assertThat(PushgatewayGroup.of(URI.create("http://127.0.0.1:9091"), "payments-latency").url())
        .hasToString("http://127.0.0.1:9091/metrics/job/firedrill/experiment/payments-latency");
  }

  @Test
  void aBasePathIsKeptAndATrailingSlashDropped() {
    assertThat(PushgatewayGroup.of(URI.create("http://127.0.0.1:9091/pgw/"), "a.b_c").url())
        .hasToString("http://127.0.0.1:9091/pgw/metrics/job/firedrill/experiment/a.b_c");
  }

  @Test
  void aValueWithASlashGoesBase64UrlEncoded() {
    assertThat(PushgatewayGroup.segment("experiment", "team/drill?1"))
        .isEqualTo("/experiment@base64/dGVhbS9kcmlsbD8x");
    assertThat(PushgatewayGroup.segment("path", "/var/tmp")).isEqualTo("/path@base64/L3Zhci90bXA");
  }

  @Test
  void anEmptyValueIsASingleEqualsSign() {
    assertThat(PushgatewayGroup.segment("experiment", "")).isEqualTo("/experiment@base64/=");
  }

  @Test
  void dotSegmentsAreNeverSentPlain() {
    assertThat(PushgatewayGroup.segment("experiment", "..")).isEqualTo("/experiment@base64/Li4");
  }
}
