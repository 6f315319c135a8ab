package dev.firedrill.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ToleranceTest {

  @Test
  void aPercentageADurationOrBothTheLargerAllowanceWinning() {
    Duration baseline = Duration.ofSeconds(10);

    assertThat(Tolerance.parse("50%").allowed(baseline)).isEqualTo(Duration.ofSeconds(15));
    assertThat(Tolerance.parse("2s").allowed(baseline)).isEqualTo(Duration.ofSeconds(12));
    assertThat(Tolerance.parse("50%,2s").allowed(baseline)).isEqualTo(Duration.ofSeconds(15));
    assertThat(Tolerance.parse("2s, 10%").allowed(baseline)).isEqualTo(Duration.ofSeconds(12));
    assertThat(Tolerance.parse("12.5%").allowed(Duration.ofSeconds(8)))
        .isEqualTo(Duration.ofSeconds(9));
    assertThat(Tolerance.parse("0%").allowed(baseline)).isEqualTo(baseline);
  }

  @Test
  void itDescribesItself() {
    assertThat(Tolerance.parse(Tolerance.DEFAULT_TEXT).text())
        .isEqualTo("50% or 2s, whichever is larger");
    assertThat(Tolerance.parse("1m30s").text()).isEqualTo("1m30s");
    assertThat(Tolerance.parse("12.50%").text()).isEqualTo("12.5%");
  }

  @Test
  void badTextNamesTheExpectation() {
    for (String bad : new String[] {"fast", "50", "50%,60%", "2s,3s", "-5%", "", "50%,"}) {
      assertThatThrownBy(() -> Tolerance.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("\"" + bad + "\": ")
          .hasMessageEndingWith("expected a percentage (50%), a duration (2s) or both (50%,2s)");
    }
  }
}
