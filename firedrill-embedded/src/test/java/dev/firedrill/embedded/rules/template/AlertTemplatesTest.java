package dev.firedrill.embedded.rules.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Expected outputs were taken from Prometheus 2.42's own expansion of the same templates (promtool
 * test rules, value 1234.5, job="api"), so each line is what Prometheus prints.
 */
class AlertTemplatesTest {

  private static final AlertTemplates.Data DATA =
      new AlertTemplates.Data(
          Map.of("job", "api"), Map.of("cluster", "lab"), "http://127.0.0.1:9090", 1234.5);

  private static String expand(String text) {
    return AlertTemplates.expand(AlertTemplates.compile("T", text), DATA);
  }

  @Test
  void labelsAndValueByVariableAndByField() {
    assertThat(
            expand(
                "{{ $labels.job }} {{ $value }} {{ .Labels.job }} {{ .Value }} [{{ $labels.missing }}]"))
        .isEqualTo("api 1234.5 api 1234.5 []");
    assertThat(
            expand(
                "{{ $externalLabels.cluster }} {{ $externalURL }} {{ .ExternalLabels.cluster }}"))
        .isEqualTo("lab http://127.0.0.1:9090 lab");
  }

  @Test
  void humanizeEveryRange() {
    assertThat(
            expand(
                "{{ humanize 0 }} {{ humanize 1234567.0 }} {{ humanize 0.000123 }} {{ humanize -1500 }}"
                    + " {{ humanize 1e30 }} {{ humanize 999.95 }} {{ humanize \"12345\" }}"))
        .isEqualTo("0 1.235M 123u -1.5k 1e+06Y 1000 12.35k");
  }

  @Test
  void humanize1024EveryRange() {
    assertThat(
            expand(
                "{{ humanize1024 1048576 }} {{ humanize1024 1 }} {{ humanize1024 1023.99 }}"
                    + " {{ humanize1024 -2048.0 }} {{ humanize1024 0.5 }}"))
        .isEqualTo("1Mi 1 1024 -2ki 0.5");
  }

  @Test
  void humanizeDurationEveryRange() {
    assertThat(
            expand(
                "{{ humanizeDuration 0 }} {{ humanizeDuration 899.99 }} {{ humanizeDuration 90061 }}"
                    + " {{ humanizeDuration 3601 }} {{ humanizeDuration 1.5 }} {{ humanizeDuration 0.0025 }}"
                    + " {{ humanizeDuration -75 }}"))
        .isEqualTo("0s 14m 59s 1d 1h 1m 1s 1h 0m 1s 1.5s 2.5ms -1m 15s");
  }

  @Test
  void humanizePercentageAndTimestamp() {
    assertThat(
            expand(
                "{{ humanizePercentage 0.1234567 }} {{ humanizePercentage 1 }} {{ humanizePercentage 0 }}"))
        .isEqualTo("12.35% 100% 0%");
    assertThat(
            expand(
                "{{ humanizeTimestamp 1435065584.128 }} {{ humanizeTimestamp 0 }}"
                    + " {{ humanizeTimestamp 1.5e9 }}"))
        .isEqualTo(
            "2015-06-23 13:19:44.128 +0000 UTC 1970-01-01 00:00:00 +0000 UTC 2017-07-14 02:40:00 +0000 UTC");
  }

  @Test
  void nanAndInfinityAreNotHumanized() {
    AlertTemplates.Data nan = new AlertTemplates.Data(Map.of(), Map.of(), "", Double.NaN);
    Template all =
        AlertTemplates.compile(
            "T",
            "{{ humanize $value }} {{ humanize1024 $value }}"
                + " {{ humanizeDuration $value }} {{ humanizeTimestamp $value }} {{ humanize \"+Inf\" }} {{ $value }}");
    assertThat(AlertTemplates.expand(all, nan)).isEqualTo("NaN NaN NaN NaN +Inf NaN");
  }

  @Test
  void stringFunctionsAndPrintf() {
    assertThat(
            expand(
                "{{ \"abc def\" | toUpper }} {{ \"ABC\" | toLower }} {{ \"hello big-world\" | title }}"
                    + " {{ printf \"%.2f|%5d|%-4s|%q|%v|%s|%g|%e\" 3.14159 42 \"x\" \"q\" 1.5 \"s\" 100000000.0 1234.5 }}"))
        .isEqualTo("ABC DEF abc Hello Big-World 3.14|   42|x   |\"q\"|1.5|s|1e+08|1.234500e+03");
    assertThat(expand("{{ printf \"%d\" 1.5 }} {{ printf \"%s\" }} {{ printf \"x\" 1 }}"))
        .isEqualTo("%!d(float64=1.5) %!s(MISSING) x%!(EXTRA int=1)");
  }

  @Test
  void conditionsAndComparisons() {
    assertThat(
            expand(
                "{{ if eq $labels.job \"api\" }}api{{ else if ne $labels.job \"x\" }}other{{ end }}"
                    + " {{ if lt $value 1.0 }}lt{{ end }}{{ if gt 2 1 }}gt{{ end }}"))
        .isEqualTo("api gt");
    assertThat(expand("{{ if gt $value 100.0 }}high{{ else }}low{{ end }}")).isEqualTo("high");
    assertThat(
            expand(
                "{{ if eq $labels.job \"db\" }}db{{ else if eq $labels.job \"api\" }}api{{ else }}x{{ end }}"))
        .isEqualTo("api");
  }

  @Test
  void pipesVariablesAndFloatsPrintAsGoPrintsThem() {
    assertThat(
            expand("{{ $value | printf \"%.1f\" }} {{ 1000000.0 }} {{ 0.00001 }} {{ 123456.0 }}"))
        .isEqualTo("1234.5 1e+06 1e-05 123456");
    assertThat(expand("{{ $x := humanize $value }}[{{ $x }}]{{- \"  trimmed  \" -}}  !"))
        .isEqualTo("[1.234k]  trimmed  !");
  }

  @Test
  void executionErrorsReadAsPrometheusWritesThem() {
    assertThat(expand("{{ humanize \"abc\" }}"))
        .isEqualTo(
            "<error expanding template: error executing template"
                + " __alert_T: template: __alert_T:1:115: executing \"__alert_T\" at <humanize \"abc\">: error calling"
                + " humanize: strconv.ParseFloat: parsing \"abc\": invalid syntax>");
    assertThat(expand("{{ if gt $value 1 }}x{{ end }}"))
        .isEqualTo(
            "<error expanding template: error executing"
                + " template __alert_T: template: __alert_T:1:118: executing \"__alert_T\" at <gt $value 1>: error calling"
                + " gt: incompatible types for comparison>");
    assertThat(expand("{{ toUpper $value }}"))
        .isEqualTo(
            "<error expanding template: error executing template"
                + " __alert_T: template: __alert_T:1:123: executing \"__alert_T\" at <$value>: wrong type for value;"
                + " expected string; got float64>");
    assertThat(expand("{{ humanize 1 2 }}"))
        .isEqualTo(
            "<error expanding template: error executing template"
                + " __alert_T: template: __alert_T:1:115: executing \"__alert_T\" at <humanize>: wrong number of args for"
                + " humanize: want 1 got 2>");
  }

  @Test
  void queryIsKnownButNotRun() {
    assertThat(expand("{{ query \"up\" }}"))
        .isEqualTo(
            "<error expanding template: error executing template"
                + " __alert_T: template: __alert_T:1:115: executing \"__alert_T\" at <query \"up\">: error calling query:"
                + " query is not supported by the embedded Prometheus's templates>");
  }

  @Test
  void parseErrorsReadAsPrometheusWritesThem() {
    assertParseError("{{ foo }}", "template: __alert_T:1: function \"foo\" not defined");
    assertParseError("{{ $nope }}", "template: __alert_T:1: undefined variable \"$nope\"");
    assertParseError("{{ if $value }}x", "template: __alert_T:1: unexpected EOF");
    assertParseError("{{ end }}", "template: __alert_T:1: unexpected {{end}}");
    assertParseError("{{ else }}", "template: __alert_T:1: unexpected {{else}}");
    assertParseError("{{ humanize $value ", "template: __alert_T:1: unclosed action");
    assertParseError("{{ \"abc }}", "template: __alert_T:1: unterminated quoted string");
    assertParseError("{{ }}", "template: __alert_T:1: missing value for command");
    assertParseError("{{ if }}x{{ end }}", "template: __alert_T:1: missing value for if");
    assertParseError("{{ # }}", "template: __alert_T:1: unexpected \"#\" in command");
    assertParseError("line one\n{{ foo }}", "template: __alert_T:2: function \"foo\" not defined");
  }

  private static void assertParseError(String text, String message) {
    assertThatThrownBy(() -> AlertTemplates.compile("T", text))
        .isInstanceOf(TemplateException.class)
        .hasMessage(message);
  }
}
