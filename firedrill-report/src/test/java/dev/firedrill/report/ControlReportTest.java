package dev.firedrill.report;

import static dev.firedrill.testing.ScriptedPrometheus.value;
import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.engine.DrillResult;
import dev.firedrill.testing.ControlGroup;
import dev.firedrill.testing.ScriptedDrill;
import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The reports of a drill whose SLI has a control group: both groups, charted and tabulated. */
class ControlReportTest {

  private static DrillRecord deviatedDrill() throws IOException {
    ScriptedDrill drill = new ScriptedDrill();
    ControlGroup group =
        new ControlGroup(drill, 0.30)
            .groups(t -> value(t >= 20 && t < 60 ? 0.45 : 0.31), t -> value(0.30));
    DrillResult result = drill.run(group.experiment());
    return JournalReader.of(result.journal().json(), "control.journal.json");
  }

  @Test
  void theJournalReadsBackBothGroupsAndTheWholeRange() throws IOException {
    DrillRecord record = deviatedDrill();
    DrillRecord.Sli p95 = record.experiment().slis().get(1);
    assertThat(p95.control()).contains(ControlGroup.P95_CONTROL);
    assertThat(p95.range().text()).isEqualTo("delta <= 0.05 vs control");
    assertThat(p95.range().min()).isEmpty();
    assertThat(p95.range().max()).isEmpty();
    DrillRecord.Value during = record.samples().get(4).value("p95").orElseThrow();
    assertThat(during.value()).hasValue(0.45);
    assertThat(during.control()).hasValue(0.30);
  }

  @Test
  void aRangeWithItsOwnBoundsAndTheControlsKeepsTheOwnBoundsAsThresholds() {
    Range range = Range.parse("<= 0.5, delta <= 0.05, ratio 0.8..1.2 vs control");
    assertThat(range.max()).hasValue(0.5);
    assertThat(range.min()).isEmpty();
    assertThat(range.text()).isEqualTo("<= 0.5, delta <= 0.05, ratio 0.8..1.2 vs control");
  }

  @Test
  void theMarkdownTabulatesExperimentAgainstControl() throws IOException {
    String md = MarkdownReport.render(deviatedDrill());
    assertThat(md)
        .contains(
            "### Experiment vs control\n\n"
                + "| SLI | at | phase | experiment | control | delta | ratio | status |\n"
                + "|---|---|---|---|---|---|---|---|\n"
                + "| p95 | +0.0s | before | 0.3 | 0.3 | 0 | 1 | ok |\n"
                + "| p95 | +5.0s | during | 0.31 | 0.3 | 0.01 | 1.033 | ok |\n")
        .contains("| p95 | +20.0s | during | 0.45 | 0.3 | 0.15 | 1.5 | breach |\n");
  }

  @Test
  void theHtmlChartDrawsBothGroupsInTheSlisPanel() throws IOException {
    String html = HtmlReport.render(deviatedDrill());
    Matcher experiment =
        Pattern.compile("<polyline class=\"sli-line\" data-sli=\"p95\" data-group=\"experiment\"")
            .matcher(html);
    Matcher control =
        Pattern.compile(
                "<polyline class=\"sli-line control\" data-sli=\"p95\" data-group=\"control\"")
            .matcher(html);
    assertThat(experiment.find()).isTrue();
    assertThat(control.find()).isTrue();
    assertThat(html).contains("p95 control 0.3 at +20s (breach)");
    assertThat(html).contains("p95 0.45 at +20s (breach)");
    assertThat(html).contains("<table id=\"control\">");
    // error_ratio has no control group: one line, no control table rows.
    assertThat(html).doesNotContain("data-sli=\"error_ratio\" data-group=\"control\"");
    assertThat(html).doesNotContain("<td>error_ratio</td><td class=\"num\">+0.0s");
  }
}
