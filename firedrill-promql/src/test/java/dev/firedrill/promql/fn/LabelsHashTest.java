package dev.firedrill.promql.fn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.XxHash64;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LabelsHashTest {

  @Test
  void labelsHashNamesAndValuesEachFollowedBy0xff() {
    byte[] written = "a\u00ffb\u00ff".getBytes(StandardCharsets.ISO_8859_1);

    assertThat(LabelsHash.of(LabelSet.of("a", "b"))).isEqualTo(XxHash64.hash(written));
  }

  @Test
  void fractionLiesInTheUnitInterval() {
    double f = LabelsHash.fraction(LabelSet.of("__name__", "up", "job", "api"));

    assertThat(f).isBetween(0.0, 1.0);
  }
}
