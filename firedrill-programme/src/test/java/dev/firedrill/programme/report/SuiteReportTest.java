package dev.firedrill.programme.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.Verdict;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.programme.suite.DrillLauncher;
import dev.firedrill.programme.suite.Suite;
import dev.firedrill.programme.suite.SuiteResult;
import dev.firedrill.testing.MinimalExperiment;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The combined report of a suite whose first drill ran (the fixture journal) and second did not.
 */
class SuiteReportTest {

  @TempDir Path dir;

  private SuiteResult result() throws Exception {
    Path journal =
        Files.copy(
            Path.of("fixtures/journals/payments-outage.json"),
            dir.resolve("drills/payments-outage.json"),
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Files.writeString(dir.resolve("drills/payments-outage.html"), "<html></html>");
    Suite.Entry first =
        new Suite.Entry(
            Path.of("payments-outage.yaml"),
            ExperimentLoader.load(
                "payments-outage.yaml",
                MinimalExperiment.TEXT.replace("id: drill", "id: payments-outage")));
    Suite.Entry second =
        new Suite.Entry(
            Path.of("later.yaml"),
            ExperimentLoader.load(
                "later.yaml", MinimalExperiment.TEXT.replace("id: drill", "id: later")));
    Suite suite =
        new Suite(
            "quarterly", dir.resolve("suite.yaml"), Duration.ofMinutes(1), List.of(first, second));
    return new SuiteResult(
        suite,
        List.of(
            new SuiteResult.Ran(
                first,
                new DrillLauncher.Launched(
                    new DrillResult(Verdict.ABORTED, "", true, List.of(), null, Optional.empty()),
                    journal,
                    3),
                Optional.empty()),
            new SuiteResult.Skipped(second, "not run: drill 1 (payments-outage) ended aborted")));
  }

  @Test
  void junitHasATestSuitePerDrillAndTheSkippedDrillIsSkipped() throws Exception {
    Files.createDirectories(dir.resolve("drills"));
    String xml = SuiteReport.of(result()).junit();

    Document doc =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    Element root = doc.getDocumentElement();
    assertThat(root.getTagName()).isEqualTo("testsuites");
    assertThat(root.getAttribute("name")).isEqualTo("firedrill.suite.quarterly");
    NodeList suites = root.getElementsByTagName("testsuite");
    assertThat(suites.getLength()).isEqualTo(2);
    Element ran = (Element) suites.item(0);
    assertThat(ran.getAttribute("name")).isEqualTo("firedrill.payments-outage");
    // the drill's own JUnit suite: the system case and one per expected alert
    assertThat(ran.getElementsByTagName("testcase").getLength()).isEqualTo(4);
    Element skipped = (Element) suites.item(1);
    assertThat(skipped.getAttribute("name")).isEqualTo("firedrill.later");
    assertThat(skipped.getAttribute("skipped")).isEqualTo("1");
    assertThat(((Element) skipped.getElementsByTagName("skipped").item(0)).getAttribute("message"))
        .isEqualTo("not run: drill 1 (payments-outage) ended aborted");
  }

  @Test
  void htmlHasARowPerDrillLinkingItsReportAndEachDrillsDetectionTable() throws Exception {
    Files.createDirectories(dir.resolve("drills"));
    SuiteReport report = SuiteReport.of(result());
    List<Path> written = report.write(dir, "quarterly");
    String html = Files.readString(written.get(0));

    assertThat(html)
        .contains("2 drills: 1 aborted, 1 skipped; exit code 3")
        .contains("data-experiment=\"payments-outage\"")
        .contains("<a href=\"drills/payments-outage.html\">payments-outage.html</a>")
        .contains("<h2 id=\"drill-1\">1. payments-outage: detection</h2>")
        .contains("data-alert=\"CheckoutErrorBudgetBurn");
    assertThat(Files.readString(written.get(1)))
        .startsWith("# Suite quarterly\n\n2 drills: 1 aborted, 1 skipped; exit code 3.\n")
        .contains("## Experiment: ");
    assertThat(written.get(2).getFileName().toString()).isEqualTo("quarterly.xml");
  }

  @Test
  void htmlPlotsEachDrilledAlertsRunsFromTheHistoryAndShowsCoverage() throws Exception {
    Files.createDirectories(dir.resolve("drills"));
    String key = "CheckoutErrorBudgetBurn{service=\"checkout\"}";
    java.util.List<dev.firedrill.history.DetectionRecord> history =
        List.of(
            new dev.firedrill.history.DetectionRecord(
                "r1",
                java.time.Instant.parse("2026-09-01T10:00:00Z"),
                "payments-outage",
                "CheckoutErrorBudgetBurn",
                key,
                "firing",
                true,
                Optional.of(Duration.ofMillis(700)),
                Optional.of(Duration.ofSeconds(1)),
                List.of("team-checkout"),
                Optional.of("team-checkout"),
                "yes",
                true,
                "held",
                "j.json"));
    dev.firedrill.programme.coverage.Coverage.Report coverage =
        new dev.firedrill.programme.coverage.Coverage.Report(List.of(), Duration.ofDays(90));

    String html = SuiteReport.of(result()).withHistory(history).withCoverage(coverage).html(dir);

    assertThat(html)
        .contains("<h2 id=\"trends\">")
        .contains(
            "aria-label=\"time to detect and to notify of "
                + key.replace("\"", "&quot;")
                + " over 1 runs\"")
        .contains("<h2 id=\"coverage\">Alert coverage</h2>")
        .contains("0 of 0 alerts drilled in the last 90 days (0%); 0 never; 0 regressed");
  }
}
