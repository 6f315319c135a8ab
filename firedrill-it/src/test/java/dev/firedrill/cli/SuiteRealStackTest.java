package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.testing.PaymentsOutageDrill;
import dev.firedrill.testing.RealLab;
import dev.firedrill.testing.RequiredBinary;
import dev.firedrill.testing.Stacks;
import dev.firedrill.testing.WebDriver;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * {@code firedrill suite} against the whole lab on the stable pair (real Prometheus and
 * Alertmanager, the repo's rules and routes): two short payments outages sharing the suite's
 * prometheus, alertmanager and receiver sections. Each must page checkout's team, which the second
 * can only do if the suite waited for the first page to resolve (its preflight would be not-run
 * with the alert still firing, and Alertmanager would skip a firing notification whose resolved one
 * failed).
 */
class SuiteRealStackTest {

  private static final String SHARED =
      "prometheus: {url: http://127.0.0.1:19090, timeout: 2s}\n"
          + "alertmanager: {url: http://127.0.0.1:19093}\n"
          + "receiver: {listen: 127.0.0.1:19101}\n";

  @TempDir Path dir;

  @Test
  void twoDrillsRunInOrderTheSecondAfterTheFirstPageResolvedWithOneJunitSuiteEach()
      throws Exception {
    try (RealLab lab =
        RealLab.start(Stacks.stable(), "suite", LabStackOptions.firedrillCommand())) {
      Files.createDirectories(dir.resolve("drills"));
      for (String id : List.of("suite-first", "suite-second")) {
        String text =
            PaymentsOutageDrill.experiment(
                id,
                "Payments answering 503 pages checkout's team",
                PaymentsOutageDrill.PAGE,
                Duration.ofSeconds(4));
        assertThat(text).contains(SHARED);
        Files.writeString(
            dir.resolve("drills").resolve(id + ".yaml"),
            lab.ports().rewrite(text.replace(SHARED, "")));
      }
      Path suite =
          Files.writeString(
              dir.resolve("suite.yaml"),
              lab.ports()
                  .rewrite(
                      """
                      id: lab-suite
                      cooldown: 2m
                      experiments: [drills]
                      defaults:
                        prometheus: {url: 'http://127.0.0.1:19090', timeout: 2s}
                        alertmanager: {url: 'http://127.0.0.1:19093'}
                        receiver: {listen: '127.0.0.1:19101'}
                      """));

      CliRun run =
          CliRun.of(
              "suite",
              suite.toString(),
              "--journals",
              dir.resolve("journals").toString(),
              "--history",
              dir.resolve("history.sqlite").toString());

      // both drills breach the steady state (payments is down): deviated, exit 1
      assertThat(run.exit()).as(run.describe()).isEqualTo(1);
      assertThat(run.out())
          .containsSubsequence(
              "suite: drill 1 of 2: suite-first",
              "suite: drill 1 of 2 ended deviated, alerts held",
              "suite: cooling down before drill 2",
              "suite: quiet after",
              "suite: drill 2 of 2: suite-second",
              "suite: drill 2 of 2 ended deviated, alerts held",
              "suite lab-suite: exit 1");
      JsonNode first = journal("suite-first");
      JsonNode second = journal("suite-second");
      assertThat(List.of(first.path("verdict").asText(), second.path("verdict").asText()))
          .containsExactly("deviated", "deviated");
      // the cooldown: the first page fired, and had resolved when the second drill started
      Instant secondStart = Instant.parse(second.path("started_at").asText());
      JsonNode firstPage = DetectionDrills.row(first, "CheckoutErrorBudgetBurn");
      Instant firstFiring =
          Instant.parse(first.path("injected_at").asText())
              .plusMillis(Math.round(firstPage.path("time_to_detect_s").asDouble() * 1000) + 1000);
      URI prometheus = lab.stack().prometheusUrl();
      String page = "ALERTS{alertname=\"CheckoutErrorBudgetBurn\",alertstate=\"firing\"}";
      assertThat(seriesAt(prometheus, page, firstFiring))
          .as("the first page, a second after it fired")
          .isPositive();
      assertThat(seriesAt(prometheus, page, secondStart))
          .as("the page when drill 2 started")
          .isZero();
      assertThat(second.path("detection").path("verdict").asText()).isEqualTo("held");

      Path xml = written(".xml");
      NodeList suites =
          DocumentBuilderFactory.newInstance()
              .newDocumentBuilder()
              .parse(new ByteArrayInputStream(Files.readAllBytes(xml)))
              .getDocumentElement()
              .getElementsByTagName("testsuite");
      List<String> names = new ArrayList<>();
      for (int i = 0; i < suites.getLength(); i++) {
        names.add(((Element) suites.item(i)).getAttribute("name"));
      }
      assertThat(names).containsExactly("firedrill.suite-first", "firedrill.suite-second");
      // each drill's suite: a test case per phase and alert, failures where the drill deviated
      for (int i = 0; i < suites.getLength(); i++) {
        Element testsuite = (Element) suites.item(i);
        int cases = testsuite.getElementsByTagName("testcase").getLength();
        assertThat(cases).as(names.get(i) + " test cases").isPositive();
        assertThat(Integer.parseInt(testsuite.getAttribute("tests"))).isEqualTo(cases);
        assertThat(Integer.parseInt(testsuite.getAttribute("failures")))
            .as(names.get(i) + ": the steady state deviated")
            .isEqualTo(testsuite.getElementsByTagName("failure").getLength())
            .isPositive();
      }
      assertThat(Files.readString(written(".html")))
          .containsPattern("<a href=\"suite-first-[0-9T-]+\\.html\">")
          .containsPattern("<a href=\"suite-second-[0-9T-]+\\.html\">")
          .contains("s (quiet)")
          // the page's two runs from the history, and the coverage of the lab's live rules
          .contains("<h2 id=\"trends\">")
          .contains(" over 2 runs\"")
          .contains("<h2 id=\"coverage\">Alert coverage</h2>");
      inChromium(written(".html"));

      // coverage of the rules the lab's Prometheus evaluates, by this suite, from its history
      CliRun coverage =
          CliRun.of(
              "coverage",
              "--prometheus",
              prometheus.toString(),
              "--experiments",
              suite.toString(),
              "--history",
              dir.resolve("history.sqlite").toString(),
              "--output",
              "json");
      assertThat(coverage.exit()).as(coverage.describe()).isZero();
      JsonNode covered = null;
      for (JsonNode row : new ObjectMapper().readTree(coverage.out()).path("rows")) {
        if (row.path("alert").asText().equals("CheckoutErrorBudgetBurn")) {
          covered = row;
        }
      }
      assertThat(covered).as(coverage.out()).isNotNull();
      assertThat(covered.path("drilled_by").toString())
          .isEqualTo("[\"suite-first\",\"suite-second\"]");
      assertThat(covered.path("status").asText()).isEqualTo("ok");
      assertThat(covered.path("last_routing").asText()).isEqualTo("yes");
      assertThat(covered.path("last_time_to_detect_seconds").asDouble())
          .isEqualTo(
              second.path("detection").path("alerts").get(0).path("time_to_detect_s").asDouble());
    }
  }

  /**
   * The combined report as headless Chromium lays it out: a row per drill in order, each linking to
   * a drill report that exists, the page's trend with two points per series and its floor, the
   * coverage table, nothing fetched and nothing run.
   */
  private static void inChromium(Path html) throws Exception {
    Path chromedriver =
        RequiredBinary.find("chromedriver", "FIREDRILL_CHROMEDRIVER", "chromium-driver");
    Path chromium = RequiredBinary.find("chromium", "FIREDRILL_CHROMIUM", "chromium");
    try (WebDriver browser =
        WebDriver.start(
            chromedriver,
            chromium,
            Files.createDirectories(html.resolveSibling("chromium-profile")),
            1100,
            1700)) {
      browser.open(html);
      List<String> rows = browser.findAll("#drills tr.drill");
      List<String> order = new ArrayList<>();
      for (String row : rows) {
        order.add(browser.attribute(row, "data-experiment"));
        assertThat(browser.displayed(row)).isTrue();
      }
      assertThat(order).containsExactly("suite-first", "suite-second");
      List<String> links = browser.findAll("#drills tr.drill a");
      assertThat(links).hasSize(2);
      for (String link : links) {
        Path target = html.resolveSibling(browser.attribute(link, "href"));
        assertThat(target).as("a drill's own report").isRegularFile();
      }
      String page = "CheckoutErrorBudgetBurn{service=\"checkout\"}";
      List<String> trend = browser.findAll("svg.trend");
      assertThat(trend).isNotEmpty();
      assertThat(browser.findAll("svg.trend polyline.trend-detect")).isNotEmpty();
      String detect = browser.findAll("svg.trend polyline.trend-detect").get(0);
      assertThat(browser.attribute(detect, "points").split(" ")).hasSize(2);
      assertThat(browser.size(detect)[0]).as("the line's laid-out width").isPositive();
      // a horizontal line has no height, which WebDriver's "displayed" counts as hidden: its
      // laid-out width and its computed stroke say it is drawn
      String floor = browser.findAll("svg.trend line.trend-floor").get(0);
      assertThat(browser.size(floor)[0]).as("the floor's laid-out width").isGreaterThan(100);
      assertThat(
              browser
                  .script(
                      "return getComputedStyle(document.querySelector("
                          + "'svg.trend line.trend-floor')).stroke")
                  .asText())
          .as("the floor's stroke")
          .isEqualTo("rgb(192, 57, 43)");
      assertThat(browser.text(browser.findAll("svg.trend .panel-title").get(0))).isEqualTo(page);
      List<String> coverage = browser.findAll("#coverage-table tr");
      assertThat(coverage.size()).as("a header and a row per alert").isGreaterThan(2);
      assertThat(browser.text(coverage.get(0))).startsWith("alert");
      assertThat(browser.findAll("script")).isEmpty();
      assertThat(browser.script("return performance.getEntriesByType('resource').length").asInt())
          .as("resources fetched")
          .isZero();
      Files.write(
          Files.createDirectories(Path.of("target", "report-screenshots")).resolve("suite.png"),
          browser.screenshot());
    }
  }

  private JsonNode journal(String id) throws Exception {
    try (Stream<Path> files = Files.list(dir.resolve("journals"))) {
      Path journal =
          files
              .filter(p -> p.getFileName().toString().startsWith(id + "-"))
              .filter(p -> p.toString().endsWith(".json"))
              .findFirst()
              .orElseThrow();
      return new ObjectMapper().readTree(journal.toFile());
    }
  }

  private Path written(String suffix) throws Exception {
    try (Stream<Path> files = Files.list(dir.resolve("journals"))) {
      return files
          .filter(p -> p.getFileName().toString().startsWith("lab-suite-"))
          .filter(p -> p.toString().endsWith(suffix))
          .findFirst()
          .orElseThrow();
    }
  }

  /** How many series {@code query} returned at {@code at}. */
  private static int seriesAt(URI prometheus, String query, Instant at) throws Exception {
    URI uri =
        prometheus.resolve(
            "/api/v1/query?query="
                + URLEncoder.encode(query, StandardCharsets.UTF_8)
                + "&time="
                + at.getEpochSecond());
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    return new ObjectMapper().readTree(response.body()).path("data").path("result").size();
  }
}
