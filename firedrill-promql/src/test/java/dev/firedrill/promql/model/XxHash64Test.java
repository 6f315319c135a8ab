package dev.firedrill.promql.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class XxHash64Test {

  private static long hash(String text) {
    return XxHash64.hash(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void matchesTheReferenceVectorsShortAndPastOneStripe() {
    assertThat(XxHash64.hash(new byte[0])).isEqualTo(0xEF46DB3751D8E999L);
    assertThat(hash("a")).isEqualTo(0xD24EC4F1A98C6E5BL);
    assertThat(hash("abc")).isEqualTo(0x44BC2CF5AD770999L);
    // 39 bytes: one 32-byte stripe, then the 8-, 4- and 1-byte tails
    assertThat(hash("Nobody inspects the spammish repetition")).isEqualTo(0xFBCEA83C8A378BF1L);
  }
}
