package dev.firedrill.embedded.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Expected strings are what Prometheus 2.42 answered for the same sample timestamps. */
class ValueJsonTest {

  @Test
  void sampleTimestampsKeepAllThreeFractionDigits() {
    assertThat(ValueJson.timestamp(1_795_996_106_310L)).isEqualTo("1795996106.310");
    assertThat(ValueJson.timestamp(1_500)).isEqualTo("1.500");
    assertThat(ValueJson.timestamp(1_005)).isEqualTo("1.005");
    assertThat(ValueJson.timestamp(2_000)).isEqualTo("2");
    assertThat(ValueJson.timestamp(-1_500)).isEqualTo("-1.500");
  }
}
