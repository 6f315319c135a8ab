package dev.firedrill.dashboards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.firedrill.marker.MarkerTags;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.prometheus.QueryResult;
import dev.firedrill.testing.RealPrometheus;
import dev.firedrill.testing.Results;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The Grafana dashboards in dashboards/: their model, their annotation query, and their PromQL on
 * the lab's rules.
 */
class DashboardsTest {

  private static final Path DASHBOARDS = Path.of("dashboards");
  private static final Path LAB_CONFIG = Path.of("fixtures/lab/prometheus.yml");
  private static final String GAUGE = "chaos_experiment_active";

  /** The title of every panel that must leave experiment windows out. */
  private static final String LEAVES_OUT = "experiment windows left out";

  private static final Duration LAB_SCRAPE_INTERVAL = Duration.ofSeconds(1);

  private static final List<GrafanaDashboard> DASHBOARD_FILES =
      GrafanaDashboard.loadAll(DASHBOARDS);

  @Test
  void theLabDashboardIsThere() {
    assertThat(DASHBOARD_FILES)
        .extracting(d -> d.root().path("uid").asText())
        .contains("firedrill-lab");
  }

  @Test
  void everyPanelQueriesPrometheusThroughTheDatasourceVariable() {
    for (GrafanaDashboard dashboard : DASHBOARD_FILES) {
      JsonNode root = dashboard.root();
      assertThat(root.path("uid").asText())
          .as("%s: uid", dashboard.name())
          .matches("[a-zA-Z0-9_-]{1,40}");
      assertThat(root.path("title").asText()).as("%s: title", dashboard.name()).isNotBlank();
      assertThat(root.path("schemaVersion").asInt())
          .as("%s: schemaVersion", dashboard.name())
          .isGreaterThanOrEqualTo(36);
      assertThat(root.path("id").isNull())
          .as("%s: id must be null so that importing creates the dashboard", dashboard.name())
          .isTrue();

      List<JsonNode> datasourceVariables = new ArrayList<>();
      root.path("templating")
          .path("list")
          .forEach(
              v -> {
                if (v.path("type").asText().equals("datasource")) {
                  datasourceVariables.add(v);
                }
              });
      assertThat(datasourceVariables)
          .as("%s: datasource variables", dashboard.name())
          .singleElement()
          .satisfies(v -> assertThat(v.path("query").asText()).isEqualTo("prometheus"));
      String uid = "${" + datasourceVariables.get(0).path("name").asText() + "}";

      assertThat(dashboard.panels()).as("%s: panels", dashboard.name()).isNotEmpty();
      Set<Integer> ids = new HashSet<>();
      for (JsonNode panel : dashboard.panels()) {
        String where = dashboard.name() + ", " + GrafanaDashboard.describe(panel);
        assertThat(ids.add(panel.path("id").asInt())).as("%s: duplicate id", where).isTrue();
        assertThat(panel.path("type").asText()).as("%s: type", where).isIn("timeseries", "stat");
        assertThat(panel.path("gridPos").path("w").asInt())
            .as("%s: gridPos.w", where)
            .isBetween(1, 24);
        assertDatasource(panel.path("datasource"), uid, where);
        assertThat(panel.path("targets")).as("%s: targets", where).isNotEmpty();
        for (JsonNode target : panel.path("targets")) {
          String targetWhere = where + ", target " + target.path("refId").asText();
          assertThat(target.path("refId").asText()).as("%s: refId", targetWhere).isNotBlank();
          assertThat(target.path("expr").asText()).as("%s: expr", targetWhere).isNotBlank();
          assertDatasource(target.path("datasource"), uid, targetWhere);
        }
      }
    }
  }

  private static void assertDatasource(JsonNode datasource, String uid, String where) {
    assertThat(datasource.path("type").asText())
        .as("%s: datasource.type", where)
        .isEqualTo("prometheus");
    assertThat(datasource.path("uid").asText()).as("%s: datasource.uid", where).isEqualTo(uid);
  }

  @Test
  void theAnnotationQuerySelectsTheTagTheAnnotationSinkWrites() {
    for (GrafanaDashboard dashboard : DASHBOARD_FILES) {
      List<JsonNode> byTag =
          dashboard.annotations().stream()
              .filter(a -> a.path("target").path("type").asText().equals("tags"))
              .toList();
      assertThat(byTag)
          .as("%s: annotation queries by tag", dashboard.name())
          .singleElement()
          .satisfies(
              a -> {
                assertThat(a.path("datasource").path("type").asText()).isEqualTo("grafana");
                assertThat(a.path("datasource").path("uid").asText()).isEqualTo("-- Grafana --");
                assertThat(a.path("enable").asBoolean()).as("enabled").isTrue();
                // More tags with matchAny false would demand them all; the sink's other tags differ
                // per drill.
                assertThat(a.path("target").path("tags"))
                    .extracting(JsonNode::asText)
                    .containsExactly(MarkerTags.CHAOS_TAG);
              });
    }
  }

  /**
   * The rate window is still full of the fault's errors after the gauge returns to 0, so the
   * exclusion must last at least that window plus a scrape and an evaluation interval after it.
   */
  @Test
  void panelsThatLeaveExperimentWindowsOutExtendTheGaugePastTheirRateWindow() {
    Pattern exclusion =
        Pattern.compile(
            "unless on\\(\\) \\(max\\(max_over_time\\(" + GAUGE + "\\[(\\w+)]\\)\\) > 0\\)");
    Pattern rateWindows =
        Pattern.compile(":(?:ratio_)?rate(\\d+[smhd])\\b|rate\\([^\\[]*\\[(\\d+[smhd])]");
    int found = 0;
    for (GrafanaDashboard dashboard : DASHBOARD_FILES) {
      for (JsonNode panel : dashboard.panels()) {
        if (!panel.path("title").asText().contains(LEAVES_OUT)) {
          continue;
        }
        found++;
        for (JsonNode target : panel.path("targets")) {
          String where =
              dashboard.name()
                  + ", "
                  + GrafanaDashboard.describe(panel)
                  + ", target "
                  + target.path("refId").asText();
          String expr = target.path("expr").asText();
          Matcher gauge = exclusion.matcher(expr);
          assertThat(gauge.find())
              .as("%s reads %s in an unless on() clause: %s", where, GAUGE, expr)
              .isTrue();
          Duration tail = duration(gauge.group(1));
          Matcher windows = rateWindows.matcher(expr);
          Duration longest = Duration.ZERO;
          while (windows.find()) {
            Duration window =
                duration(windows.group(1) != null ? windows.group(1) : windows.group(2));
            longest = window.compareTo(longest) > 0 ? window : longest;
          }
          assertThat(longest).as("%s: rate window found in %s", where, expr).isPositive();
          assertThat(tail)
              .as("%s: exclusion after the gauge returns to 0, rate window %s", where, longest)
              .isGreaterThanOrEqualTo(longest.plus(LAB_SCRAPE_INTERVAL.multipliedBy(2)));
        }
      }
    }
    assertThat(found).as("panels titled \"... %s\"", LEAVES_OUT).isGreaterThanOrEqualTo(2);
  }

  private static Duration duration(String text) {
    long amount = Long.parseLong(text.substring(0, text.length() - 1));
    return switch (text.charAt(text.length() - 1)) {
      case 's' -> Duration.ofSeconds(amount);
      case 'm' -> Duration.ofMinutes(amount);
      case 'h' -> Duration.ofHours(amount);
      case 'd' -> Duration.ofDays(amount);
      default -> throw new AssertionError("unexpected duration " + text);
    };
  }

  /**
   * One real Prometheus with the lab's rule files, scraping the lab's series from {@link
   * LabSeriesExporter}.
   */
  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  class OnTheLabsPrometheus {

    private static final double CHECKOUT_ERROR_RATIO = 0.02;
    private static final Duration WAIT = Duration.ofSeconds(20);

    private LabSeriesExporter exporter;
    private RealPrometheus prometheus;

    @BeforeAll
    void start() throws IOException {
      exporter = LabSeriesExporter.start(CHECKOUT_ERROR_RATIO);
      // firedrill after a drill: the gauge is there at 0
      exporter.setChaosActive(0);
      prometheus = RealPrometheus.start(List.of(exporter.address()), labRuleFiles());
    }

    @AfterAll
    void stop() {
      // also after a failed or skipped start
      if (prometheus != null) {
        prometheus.close();
      }
      if (exporter != null) {
        exporter.close();
      }
    }

    /** The rule files fixtures/lab/prometheus.yml loads, globs resolved as Prometheus does. */
    private static List<String> labRuleFiles() throws IOException {
      JsonNode config = new ObjectMapper(new YAMLFactory()).readTree(LAB_CONFIG.toFile());
      List<String> rules = new ArrayList<>();
      for (JsonNode entry : config.path("rule_files")) {
        Path pattern = LAB_CONFIG.getParent().resolve(entry.asText()).normalize();
        PathMatcher matcher =
            FileSystems.getDefault().getPathMatcher("glob:" + pattern.getFileName());
        try (Stream<Path> files = Files.list(pattern.getParent())) {
          for (Path file : files.filter(f -> matcher.matches(f.getFileName())).sorted().toList()) {
            rules.add(Files.readString(file));
          }
        }
      }
      assertThat(rules).as("rule files of %s", LAB_CONFIG).hasSizeGreaterThanOrEqualTo(3);
      return rules;
    }

    @Test
    @Order(1)
    void everyQueryOfEveryDashboardAnswersWithData() {
      prometheus.awaitQuery(
          "slo:checkout_error_ratio:ratio_rate3d", Results.nonEmptyVector(), WAIT);
      int queries = 0;
      for (GrafanaDashboard dashboard : DASHBOARD_FILES) {
        GrafanaVariables variables = dashboard.variables();
        for (GrafanaDashboard.Query query : dashboard.queries()) {
          String where = dashboard.name() + ", " + query.where();
          String promql = variables.expand(query.expr(), query.where());
          QueryResult result = answer(where, promql);
          // An annotation query selects moments something happened; with the gauge at 0 nothing
          // has.
          if (!query.where().startsWith("annotation") && !Results.nonEmptyVector().test(result)) {
            try {
              prometheus.awaitQuery(promql, Results.nonEmptyVector(), WAIT);
            } catch (AssertionError e) {
              throw new AssertionError(where + ": " + e.getMessage(), e);
            }
          }
          queries++;
        }
      }
      assertThat(queries).isGreaterThanOrEqualTo(15);
    }

    private QueryResult answer(String where, String promql) {
      try {
        return prometheus.client().query(promql);
      } catch (PrometheusException e) {
        return fail(where + ": " + e.getMessage());
      }
    }

    @Test
    @Order(2)
    void theExcludingPanelDropsTheFaultWindowAndTheRateWindowAfterIt() throws PrometheusException {
      GrafanaDashboard lab =
          DASHBOARD_FILES.stream()
              .filter(d -> d.root().path("uid").asText().equals("firedrill-lab"))
              .findFirst()
              .orElseThrow();
      JsonNode panel =
          lab.panels().stream()
              .filter(p -> p.path("title").asText().equals("Error ratio, " + LEAVES_OUT))
              .findFirst()
              .orElseThrow();
      String excluding =
          lab.variables()
              .expand(panel.path("targets").path(0).path("expr").asText(), "excluding panel");
      Predicate<QueryResult> checkoutRatio =
          result ->
              result instanceof QueryResult.Vector vector
                  && vector.samples().stream()
                      .anyMatch(
                          s ->
                              "checkout".equals(s.labels().get("service"))
                                  && Math.abs(s.value() - CHECKOUT_ERROR_RATIO) < 0.002);

      prometheus.awaitQuery(excluding, checkoutRatio, WAIT);

      String neverExported = excluding.replace(GAUGE, GAUGE + "_never_exported");
      assertThat(prometheus.client().query(neverExported))
          .as("without any %s series nothing is left out: %s", GAUGE, neverExported)
          .matches(checkoutRatio);

      exporter.setChaosActive(1);
      prometheus.awaitQuery(excluding, Results.emptyVector(), WAIT);
      assertThat(prometheus.client().query("service:http_error_ratio:rate5s{service=\"checkout\"}"))
          .as("the ratio itself is still there")
          .matches(checkoutRatio);

      exporter.setChaosActive(0);
      prometheus.awaitQuery(GAUGE + " == 0", Results.nonEmptyVector(), WAIT);
      assertThat(prometheus.client().query(excluding))
          .as("just after the gauge returned to 0, its 1 is still in the max_over_time window")
          .matches(Results.emptyVector());

      prometheus.awaitQuery(excluding, checkoutRatio, WAIT);
    }
  }
}
