package dev.firedrill.promql.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.promql.model.LabelSet;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CompatTest {

  @Test
  void aBuildinfoVersionNamesTheModeByItsMajorVersion() {
    assertThat(Compat.ofVersion("2.42.0+ds")).contains(Compat.PROMETHEUS_2);
    assertThat(Compat.ofVersion("3.5.3")).contains(Compat.PROMETHEUS_3);
    assertThat(Compat.ofVersion(" v3.0.0-rc.1 ")).contains(Compat.PROMETHEUS_3);
    assertThat(Compat.ofVersion("1.8.2")).isEqualTo(Optional.empty());
    assertThat(Compat.ofVersion("30.1")).isEqualTo(Optional.empty());
    assertThat(Compat.ofVersion("dev")).isEqualTo(Optional.empty());
  }

  @Test
  void aMajorVersionOtherThanTwoOrThreeIsRefusedByName() {
    assertThat(Compat.ofMajor(2)).isEqualTo(Compat.PROMETHEUS_2);
    assertThatThrownBy(() -> Compat.ofMajor(4))
        .hasMessage("compatibility mode 4 is not one of 2 or 3 (the Prometheus major version)");
  }

  @Test
  void droppingTheNameDropsTypeAndUnitInPrometheus3Only() {
    LabelSet labels =
        LabelSet.of("__name__", "x_seconds", "__type__", "gauge", "__unit__", "seconds", "a", "b");
    assertThat(Compat.PROMETHEUS_3.withoutName(labels)).isEqualTo(LabelSet.of("a", "b"));
    assertThat(Compat.PROMETHEUS_2.withoutName(labels))
        .isEqualTo(LabelSet.of("__type__", "gauge", "__unit__", "seconds", "a", "b"));
    LabelSet plain = LabelSet.of("a", "b");
    assertThat(Compat.PROMETHEUS_3.withoutName(plain)).isSameAs(plain);
  }
}
