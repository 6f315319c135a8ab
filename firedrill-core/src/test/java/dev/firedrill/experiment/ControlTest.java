package dev.firedrill.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class ControlTest {

  private static final OptionalDouble NONE = OptionalDouble.empty();

  private static Control control(
      OptionalDouble minDelta,
      OptionalDouble maxDelta,
      OptionalDouble minRatio,
      OptionalDouble maxRatio) {
    return new Control("up{pod!~\"{{ targets }}\"}", minDelta, maxDelta, minRatio, maxRatio);
  }

  @Test
  void deltaBoundsAreInclusive() {
    Control control = control(OptionalDouble.of(-0.1), OptionalDouble.of(0.05), NONE, NONE);
    assertThat(control.within(0.35, 0.30)).isTrue();
    assertThat(control.within(0.3501, 0.30)).isFalse();
    assertThat(control.within(0.20, 0.30)).isTrue();
    assertThat(control.within(0.19, 0.30)).isFalse();
    assertThat(control.rangeText()).isEqualTo("delta -0.1..0.05 vs control");
  }

  @Test
  void ratioBoundsDivideByTheControl() {
    Control control = control(NONE, NONE, NONE, OptionalDouble.of(1.2));
    assertThat(control.within(0.36, 0.30)).isTrue();
    assertThat(control.within(0.37, 0.30)).isFalse();
    assertThat(control.within(0.1, 0)).isFalse();
    assertThat(control.within(Double.NaN, 0.3)).isFalse();
    assertThat(control.rangeText()).isEqualTo("ratio <= 1.2 vs control");
  }

  @Test
  void bothKindsMustHold() {
    Control control = control(NONE, OptionalDouble.of(0.05), OptionalDouble.of(0.9), NONE);
    assertThat(control.within(0.30, 0.30)).isTrue();
    assertThat(control.within(0.26, 0.30)).isFalse();
    assertThat(control.rangeText()).isEqualTo("delta <= 0.05, ratio >= 0.9 vs control");
  }

  @Test
  void aControlWithoutBoundsIsRefused() {
    assertThatThrownBy(() -> control(NONE, NONE, NONE, NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a control needs max_delta, min_delta, max_ratio or min_ratio");
  }

  @Test
  void anSliWithAControlHoldsItsOwnRangeAndTheControlBounds() {
    Sli sli =
        new Sli(
            "p95",
            "q{pod=~\"{{ targets }}\"}",
            NONE,
            OptionalDouble.of(0.5),
            Missing.FAIL,
            Optional.of(control(NONE, OptionalDouble.of(0.05), NONE, NONE)));
    assertThat(sli.within(0.32, OptionalDouble.of(0.30))).isTrue();
    assertThat(sli.within(0.40, OptionalDouble.of(0.30))).isFalse();
    assertThat(sli.within(0.52, OptionalDouble.of(0.50))).isFalse();
    assertThat(sli.within(0.32, NONE)).isFalse();
    assertThat(sli.rangeText()).isEqualTo("<= 0.5, delta <= 0.05 vs control");
  }
}
