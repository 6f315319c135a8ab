package dev.firedrill.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The expected texts are what Prometheus 3.5 printed for the same input (promtool check rules with
 * {@code for:} set to it; /api/v1/status/config for the spelling of a prometheus.yml's intervals).
 */
class DurationsTest {

  @ParameterizedTest
  @CsvSource({
    "0, 0",
    "0s, 0",
    "500ms, 500",
    "1h30m, 5400000",
    "1s500ms, 1500",
    "1w, 604800000",
    "1y, 31536000000",
    "1y2w3d4h5m6s7ms, 33019506007",
    "1d2h, 93600000",
    "007m, 420000"
  })
  void readsWhatPrometheusReads(String text, long millis) {
    assertThat(Durations.parse(text)).isEqualTo(Duration.ofMillis(millis));
    assertThat(Durations.parsePrometheus(text)).isEqualTo(Duration.ofMillis(millis));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "30s1h|not a valid duration string: \"30s1h\"",
        "1h1h|not a valid duration string: \"1h1h\"",
        "1h30|not a valid duration string: \"1h30\"",
        "h|not a valid duration string: \"h\"",
        "-5m|not a valid duration string: \"-5m\"",
        "1.5h|unknown unit \".\" in duration \"1.5h\"",
        "1hs|unknown unit \"hs\" in duration \"1hs\"",
        "5x|unknown unit \"x\" in duration \"5x\"",
        "'5 m'|unknown unit \" m\" in duration \"5 m\"",
        "300y|duration out of range",
        "99999999999999999999s|not a valid duration string: \"99999999999999999999s\"",
        "''|empty duration string"
      })
  void refusesWhatPrometheusRefusesWithItsMessage(String text, String message) {
    assertThatThrownBy(() -> Durations.parsePrometheus(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
    assertThat(Durations.parseOrNull(text)).isNull();
  }

  @Test
  void theLargestDurationPrometheusHoldsIsTheLast() {
    // 2^63 - 1 ns is 106751d23h47m16s854ms and 775807 ns; a millisecond more is out of range.
    assertThat(Durations.parse("106751d23h47m16s854ms"))
        .isEqualTo(Duration.ofMillis(9_223_372_036_854L));
    assertThatThrownBy(() -> Durations.parsePrometheus("106751d23h47m16s855ms"))
        .hasMessage("duration out of range");
    assertThatThrownBy(() -> Durations.parsePrometheus("293y")).hasMessage("duration out of range");
  }

  @Test
  void firedrillsOwnMessageSaysWhatWasExpected() {
    assertThatThrownBy(() -> Durations.parse("10 minutes"))
        .isInstanceOf(Durations.Invalid.class)
        .hasMessage("expected a duration such as 500ms, 30s, 5m, 1h or 30d, got \"10 minutes\"");
  }

  @Test
  void unitsOutOfOrderAreRefusedWithTheRule() {
    assertThatThrownBy(() -> Durations.parse("30s1h"))
        .hasMessage(
            "expected a duration such as 500ms, 30s, 5m, 1h or 30d, got \"30s1h\"; units go from the largest"
                + " to the smallest, each at most once: y, w, d, h, m, s, ms (such as 1h30m)");
    assertThatThrownBy(() -> Durations.parse("400y"))
        .hasMessage(
            "expected a duration such as 500ms, 30s, 5m, 1h or 30d, got \"400y\"; that is out of range"
                + " (Prometheus allows at most about 292 years)");
  }

  @ParameterizedTest
  @CsvSource({
    "0, 0s",
    "4000, 4s",
    "90000, 1m30s",
    "5400000, 1h30m",
    "691200000, 8d",
    "1209600000, 2w",
    "7862400000, 13w",
    "32140800000, 372d",
    "63072000000, 2y",
    "3600001, 1h1ms",
    "31536000000, 1y",
    "31539600000, 365d1h",
    "500, 500ms"
  })
  void spellsAsPrometheusSpells(long millis, String text) {
    assertThat(Durations.format(Duration.ofMillis(millis))).isEqualTo(text);
    assertThat(Durations.parse(text)).isEqualTo(Duration.ofMillis(millis));
  }

  @Test
  void secondsForPeopleKeepOneDecimal() {
    assertThat(Durations.seconds(Duration.ofSeconds(12))).isEqualTo("12.0s");
    assertThat(Durations.seconds(Duration.ofMillis(1250))).isEqualTo("1.3s");
    assertThat(Durations.seconds(Duration.ZERO)).isEqualTo("0.0s");
  }
}
