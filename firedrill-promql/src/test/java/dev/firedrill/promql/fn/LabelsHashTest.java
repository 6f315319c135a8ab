package dev.firedrill.promql.fn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.promql.model.LabelSet;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LabelsHashTest {

  @Test
  void xxh64MatchesTheReferenceVectors() {
    assertThat(LabelsHash.xxh64(new byte[0])).isEqualTo(0xEF46DB3751D8E999L);
    assertThat(LabelsHash.xxh64("a".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(0xD24EC4F1A98C6E5BL);
    assertThat(LabelsHash.xxh64("abc".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(0x44BC2CF5AD770999L);
  }

  @Test
  void labelsHashNamesAndValuesEachFollowedBy0xff() {
    byte[] written = "a\u00ffb\u00ff".getBytes(StandardCharsets.ISO_8859_1);

    assertThat(LabelsHash.of(LabelSet.of("a", "b"))).isEqualTo(LabelsHash.xxh64(written));
  }

  @Test
  void fractionLiesInTheUnitInterval() {
    double f = LabelsHash.fraction(LabelSet.of("__name__", "up", "job", "api"));

    assertThat(f).isBetween(0.0, 1.0);
  }
}
