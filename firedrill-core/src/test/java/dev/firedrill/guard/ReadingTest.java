package dev.firedrill.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class ReadingTest {

  @Test
  void aValueInsideItsRangeIsOkAndOneOutsideIsABreach() {
    assertThat(Reading.of("error_ratio", 0.001, true, "<= 0.005").status())
        .isEqualTo(Reading.Status.OK);
    assertThat(Reading.of("error_ratio", 0.02, false, "<= 0.005").status())
        .isEqualTo(Reading.Status.BREACH);
  }

  @Test
  void eachStatusPrintsTheWayTheConsoleShowsIt() {
    assertThat(Reading.of("error_ratio", 0.001, true, "<= 0.005").text())
        .isEqualTo("error_ratio 0.001 <= 0.005");
    assertThat(Reading.of("error_ratio", 0.02, false, "<= 0.005").text())
        .isEqualTo("error_ratio 0.02 outside <= 0.005");
    assertThat(Reading.noData("p95", "<= 0.3", "empty result").text())
        .isEqualTo("p95 no data (empty result)");
    assertThat(Reading.noData("p95", "<= 0.3", "").text()).isEqualTo("p95 no data");
    assertThat(Reading.error("p95", "<= 0.3", "connection refused").text())
        .isEqualTo("p95 error: connection refused");
  }

  @Test
  void aControlGroupsValueIsPrintedBesideTheSlis() {
    Reading withControl =
        new Reading(
            "latency",
            Reading.Status.OK,
            OptionalDouble.of(0.31),
            "<= 0.5",
            "",
            OptionalDouble.of(0.3));
    assertThat(withControl.text()).isEqualTo("latency 0.31 (control 0.3) <= 0.5");
  }

  @Test
  void statusesHaveTheirJournalNames() {
    assertThat(Reading.Status.OK.text()).isEqualTo("ok");
    assertThat(Reading.Status.BREACH.text()).isEqualTo("breach");
    assertThat(Reading.Status.NO_DATA.text()).isEqualTo("no-data");
    assertThat(Reading.Status.ERROR.text()).isEqualTo("error");
  }

  @Test
  void absentTextsAndControlBecomeEmpty() {
    Reading reading = new Reading("p95", Reading.Status.NO_DATA, null, null, null, null);
    assertThat(reading.value()).isEmpty();
    assertThat(reading.expectation()).isEmpty();
    assertThat(reading.detail()).isEmpty();
    assertThat(reading.control()).isEmpty();
  }

  @Test
  void onlyOkAndBreachCarryAValue() {
    assertThatThrownBy(() -> new Reading("p95", Reading.Status.OK, OptionalDouble.empty(), "", ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ok reading of p95 must carry a value");
    assertThatThrownBy(() -> new Reading("p95", Reading.Status.ERROR, OptionalDouble.of(1), "", ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("error reading of p95 must not carry a value");
  }
}
