package dev.firedrill.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.testing.RequiredBinary;
import dev.firedrill.testing.WebDriver;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTML report as a real browser draws it: headless Chromium through ChromeDriver. */
class HtmlReportBrowserTest {

  @TempDir static Path dir;

  private static WebDriver browser;

  @BeforeAll
  static void startBrowser() throws Exception {
    Path chromedriver =
        RequiredBinary.find("chromedriver", "FIREDRILL_CHROMEDRIVER", "chromium-driver");
    Path chromium = RequiredBinary.find("chromium", "FIREDRILL_CHROMIUM", "chromium");
    browser =
        WebDriver.start(
            chromedriver, chromium, Files.createDirectories(dir.resolve("profile")), 1100, 1700);
  }

  @AfterAll
  static void stopBrowser() {
    if (browser != null) {
      browser.close();
    }
  }

  @Test
  void theTimelineDrawsEachSliTheFaultWindowTheMarksAndTheFiredAlerts() throws Exception {
    DrillRecord record = JournalReader.read(Journals.path("payments-outage"));
    Path html = Files.writeString(dir.resolve("payments-outage.html"), HtmlReport.render(record));

    browser.open(html);

    List<String> lines = browser.findAll("#timeline polyline.sli-line");
    assertThat(lines).hasSize(2);
    assertThat(attributes(lines, "data-sli"))
        .containsExactly("checkout_error_ratio", "orders_completed_ratio");
    for (String line : lines) {
      assertVisible(line);
      assertThat(browser.attribute(line, "points").split(" ")).hasSize(8);
    }
    assertThat(browser.findAll("#timeline polyline.guard-line")).hasSize(1);
    List<String> thresholds = browser.findAll("#timeline line.threshold");
    assertThat(attributes(thresholds, "data-sli"))
        .containsExactly("checkout_error_ratio", "orders_completed_ratio", "burn_rate");
    thresholds.forEach(this::assertVisible);
    for (String id : List.of("#fault-window", "#abort-mark", "#rollback-mark", "#recovery-mark")) {
      assertThat(browser.findAll(id)).as(id).hasSize(1);
      assertVisible(browser.findAll(id).get(0));
    }
    List<String> firing = browser.findAll("#timeline .alert-mark.firing");
    assertThat(attributes(firing, "data-alert"))
        .containsExactly("CheckoutErrorBudgetBurn{service=\"checkout\"}", "CheckoutOrdersPending");
    firing.forEach(this::assertVisible);
    assertThat(attributes(browser.findAll("#timeline .alert-mark.notified"), "data-alert"))
        .containsExactly("CheckoutErrorBudgetBurn{service=\"checkout\"}");
    assertThat(browser.findAll("#timeline .alert-mark.pending")).hasSize(2);
    assertThat(browser.findAll("#timeline .alert-lane[data-alert=\"PaymentsDown\"] .alert-mark"))
        .isEmpty();
    assertThat(browser.findAll("#recovery-curve polyline.recovery-line")).hasSize(3);
    assertVisible(browser.findAll("#recovered-mark").get(0));
    assertThat(browser.findAll("#detection tr")).hasSize(4);
    assertVisible(browser.findAll("#budget-ceiling").get(0));
    assertThat(browser.script("return performance.getEntriesByType('resource').length").asInt())
        .isZero();

    byte[] png = browser.screenshot();
    Path shot =
        Files.createDirectories(Path.of("target", "report-screenshots"))
            .resolve("payments-outage.png");
    Files.write(shot, png);
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
    assertThat(image.getWidth()).isEqualTo(1100);
    assertThat(distinctColours(image)).as("a blank or one-colour page").isGreaterThan(50);
  }

  @Test
  void aScriptInTheTitleIsShownAsTextAndNeverRuns() throws Exception {
    ObjectNode journal = Journals.tree("payments-latency");
    String title = "<script>alert('xss')</script><img src=x onerror=\"alert('img')\">";
    ((ObjectNode) journal.get("experiment")).put("title", title);
    Path html =
        Files.writeString(dir.resolve("xss.html"), HtmlReport.render(Journals.record(journal)));

    browser.open(html);

    assertThat(browser.text(browser.findAll("#title").get(0))).isEqualTo(title);
    assertThat(browser.findAll("script")).isEmpty();
    assertThat(browser.findAll("img")).isEmpty();
    assertThat(browser.errorOf("GET", "/alert/text")).isEqualTo("no such alert");
  }

  @Test
  void historyAsHtmlDrawsEachFiredAlertsTrendWithItsFloorAndFetchesNothing() throws Exception {
    Path journal = Journals.path("payments-outage");
    List<dev.firedrill.history.DetectionRecord> records =
        dev.firedrill.history.JournalRows.of(
            new com.fasterxml.jackson.databind.ObjectMapper().readTree(journal.toFile()),
            journal.toString());
    Path html =
        Files.writeString(
            dir.resolve("history.html"),
            dev.firedrill.programme.trend.HistoryPage.render(
                "history.sqlite",
                records,
                dev.firedrill.programme.trend.HistoryPage.floorsFromJournals(records)));

    browser.open(html);

    // the page and the orders alert fired; PaymentsDown is expected silent: a table, no chart
    assertThat(browser.findAll("section.alert-history")).hasSize(3);
    List<String> charts = browser.findAll("svg.trend");
    assertThat(charts).hasSize(2);
    charts.forEach(this::assertVisible);
    for (String floor : browser.findAll("svg.trend line.trend-floor")) {
      assertThat(browser.size(floor)[0]).as("the floor's laid-out width").isGreaterThan(100);
    }
    assertThat(browser.findAll("svg.trend circle.trend-detect-point")).hasSize(2);
    browser.findAll("svg.trend circle.trend-detect-point").forEach(this::assertVisible);
    assertThat(browser.findAll("table.history-runs tr")).hasSize(6); // 3 headers, 3 runs
    assertThat(browser.findAll("script")).isEmpty();
    assertThat(browser.script("return performance.getEntriesByType('resource').length").asInt())
        .isZero();
  }

  private List<String> attributes(List<String> elements, String name) throws Exception {
    List<String> values = new java.util.ArrayList<>();
    for (String element : elements) {
      values.add(browser.attribute(element, name));
    }
    return values;
  }

  private void assertVisible(String element) {
    try {
      assertThat(browser.displayed(element)).isTrue();
      double[] size = browser.size(element);
      assertThat(size[0] + size[1]).as("laid-out size").isGreaterThan(0);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static int distinctColours(BufferedImage image) {
    Set<Integer> colours = new HashSet<>();
    for (int y = 0; y < image.getHeight(); y += 3) {
      for (int x = 0; x < image.getWidth(); x += 3) {
        colours.add(image.getRGB(x, y));
      }
    }
    return colours.size();
  }
}
