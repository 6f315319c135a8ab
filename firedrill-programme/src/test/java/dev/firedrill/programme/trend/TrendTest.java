package dev.firedrill.programme.trend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.history.DetectionRecord;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

class TrendTest {

  private static final String KEY = "CheckoutErrorBudgetBurn{service=\"checkout\"}";

  private static DetectionRecord run(String day, Double detect, Double notify, String journal) {
    return new DetectionRecord(
        "run-" + day,
        Instant.parse(day + "T10:00:00Z"),
        "payments-outage",
        "CheckoutErrorBudgetBurn",
        KEY,
        "firing",
        detect != null,
        Optional.ofNullable(detect).map(s -> Duration.ofMillis(Math.round(s * 1000))),
        Optional.ofNullable(notify).map(s -> Duration.ofMillis(Math.round(s * 1000))),
        detect != null ? List.of("team-checkout") : List.of(),
        Optional.of("team-checkout"),
        detect != null ? "yes" : "-",
        detect != null,
        detect != null ? "held" : "deviated",
        journal);
  }

  private static final List<DetectionRecord> RUNS =
      List.of(
          run("2026-06-01", 1.5, 1.0, "journals/a.json"),
          run("2026-09-01", null, null, "journals/b, \"odd\".json"),
          run("2026-12-01", 2.0, 0.5, "journals/c.json"));

  @Test
  void theChartHasAPointPerFiredRunTheFloorAndAMarkForTheMissedRun() throws Exception {
    String svg = TrendSvg.render(KEY, RUNS, OptionalDouble.of(0.4));

    Document doc =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    assertThat(doc.getElementsByTagName("circle").getLength()).isEqualTo(4); // 2 runs x 2 series
    Element detect = null;
    for (int i = 0; i < doc.getElementsByTagName("polyline").getLength(); i++) {
      Element line = (Element) doc.getElementsByTagName("polyline").item(i);
      if (line.getAttribute("class").contains("trend-detect")) {
        detect = line;
      }
    }
    assertThat(detect).isNotNull();
    assertThat(detect.getAttribute("points").split(" ")).hasSize(2);
    assertThat(svg)
        .contains("class=\"threshold trend-floor\"")
        .contains(">floor 0.4s</text>")
        .contains("2026-09-01 payments-outage: did not fire")
        .contains("2026-12-01 payments-outage: time to detect 2.0s");
  }

  @Test
  void csvAndJsonExportTheRunsSinceADayWithTheSameColumns() throws Exception {
    List<DetectionRecord> since = HistoryExport.since(RUNS, Instant.parse("2026-09-01T00:00:00Z"));

    assertThat(HistoryExport.csv(since).split("\r\n"))
        .containsExactly(
            "run_id,run_at,experiment,alert,alert_key,expect,fired,time_to_detect_seconds,"
                + "time_to_notify_seconds,receivers,expected_receiver,routing,held,verdict,"
                + "simulated,journal",
            "run-2026-09-01,2026-09-01T10:00:00Z,payments-outage,CheckoutErrorBudgetBurn,"
                + "\"CheckoutErrorBudgetBurn{service=\"\"checkout\"\"}\",firing,false,,,,"
                + "team-checkout,-,false,deviated,false,\"journals/b, \"\"odd\"\".json\"",
            "run-2026-12-01,2026-12-01T10:00:00Z,payments-outage,CheckoutErrorBudgetBurn,"
                + "\"CheckoutErrorBudgetBurn{service=\"\"checkout\"\"}\",firing,true,2.0,0.5,"
                + "team-checkout,team-checkout,yes,true,held,false,journals/c.json");
    var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
    var json = mapper.createArrayNode();
    HistoryExport.json(since, json);
    assertThat(json).hasSize(2);
    List<String> fields = new java.util.ArrayList<>();
    json.get(0).fieldNames().forEachRemaining(fields::add);
    assertThat(fields).isEqualTo(HistoryExport.COLUMNS);
    assertThat(json.get(0).path("time_to_detect_seconds").isNull()).isTrue();
    assertThat(json.get(1).path("time_to_detect_seconds").asDouble()).isEqualTo(2.0);
  }
}
