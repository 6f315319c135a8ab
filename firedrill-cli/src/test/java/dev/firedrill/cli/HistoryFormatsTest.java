package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * {@code firedrill history --since --format text|json|csv|html --alert}: the demo's outage journal
 * (2026-11-29) and the same drill two days later, slower and misrouted, in a SQLite history.
 */
class HistoryFormatsTest {

  private static final Path OUTAGE = Path.of("fixtures/journals/payments-outage.json");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PAGE = "CheckoutErrorBudgetBurn";

  @TempDir Path dir;

  private Path later;

  @BeforeEach
  void twoRuns() throws Exception {
    ObjectNode journal = (ObjectNode) JSON.readTree(OUTAGE.toFile());
    journal.put("started_at", "2026-12-01T09:00:00Z");
    journal.put("injected_at", "2026-12-01T09:00:01Z");
    ((ObjectNode) journal.path("detection").path("alerts").get(0))
        .put("time_to_detect_s", 2.5)
        .put("floor_s", 0.6)
        .put("receiver", "NO")
        .put("held", false)
        .putArray("receivers")
        .add("default")
        .add("on-call");
    later = Files.writeString(dir.resolve("later.json"), JSON.writeValueAsString(journal));
    CliRun imported = history("--import", OUTAGE.toString(), later.toString());
    assertThat(imported.exit()).as(imported.describe()).isZero();
  }

  private CliRun history(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "history";
    all[1] = "--history";
    all[2] = dir.resolve("history.sqlite").toString();
    System.arraycopy(args, 0, all, 3, args.length);
    return CliRun.of(all);
  }

  @Test
  void csvHasTheHeaderAndARowPerAlertPerRunSinceTheDay() {
    CliRun run = history("--format", "csv", "--since", "2026-12-01");

    assertThat(run.exit()).as(run.describe()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.out().split("\r\n", -1))
        .containsExactly(
            "run_id,run_at,experiment,alert,alert_key,expect,fired,time_to_detect_seconds,"
                + "time_to_notify_seconds,receivers,expected_receiver,routing,held,verdict,"
                + "simulated,journal",
            "payments-outage@2026-12-01T09:00:00Z,2026-12-01T09:00:01Z,payments-outage,"
                + "CheckoutErrorBudgetBurn,\"CheckoutErrorBudgetBurn{service=\"\"checkout\"\"}\","
                + "firing,true,2.5,1.029,default;on-call,team-checkout,NO,false,aborted,false,"
                + later,
            "payments-outage@2026-12-01T09:00:00Z,2026-12-01T09:00:01Z,payments-outage,"
                + "CheckoutOrdersPending,CheckoutOrdersPending,firing,true,5.7,,team-payments,"
                + "team-payments,yes,true,aborted,false,"
                + later,
            "payments-outage@2026-12-01T09:00:00Z,2026-12-01T09:00:01Z,payments-outage,"
                + "PaymentsDown,PaymentsDown,silent,false,,,,,-,true,aborted,false,"
                + later,
            "");
  }

  @Test
  void jsonIsTheOutputJsonDocumentFilteredByAlertAndSince() throws Exception {
    CliRun all = history("--format", "json", "--alert", PAGE);
    CliRun recent = history("--format", "json", "--alert", PAGE, "--since", "2026-11-30T00:00:00Z");

    assertThat(all.exit()).as(all.describe()).isZero();
    JsonNode doc = JSON.readTree(all.out());
    assertThat(doc.path("command").asText()).isEqualTo("history");
    assertThat(doc.path("runs")).hasSize(2);
    assertThat(JSON.readTree(recent.out()).path("runs")).hasSize(1);
    JsonNode run = JSON.readTree(recent.out()).path("runs").get(0);
    List<String> fields = new java.util.ArrayList<>();
    run.fieldNames().forEachRemaining(fields::add);
    assertThat(fields)
        .containsExactly(
            "run_id",
            "run_at",
            "experiment",
            "alert",
            "alert_key",
            "expect",
            "fired",
            "time_to_detect_seconds",
            "time_to_notify_seconds",
            "receivers",
            "expected_receiver",
            "routing",
            "held",
            "verdict",
            "simulated",
            "journal");
    assertThat(run.path("run_at").asText()).isEqualTo("2026-12-01T09:00:01Z");
    assertThat(run.path("time_to_detect_seconds").asDouble()).isEqualTo(2.5);
    assertThat(run.path("receivers").toString()).isEqualTo("[\"default\",\"on-call\"]");
    assertThat(run.path("routing").asText()).isEqualTo("NO");
    // --output json is the same document
    assertThat(history("--output", "json", "--alert", PAGE).out()).isEqualTo(all.out());
  }

  @Test
  void htmlPlotsEachAlertsRunsAgainstTheFloorOfItsLatestJournal() throws Exception {
    CliRun run = history("--format", "html", "--alert", PAGE);

    assertThat(run.exit()).as(run.describe()).isZero();
    String html = run.out();
    assertThat(html)
        .startsWith("<!DOCTYPE html>")
        .contains("<h2>CheckoutErrorBudgetBurn{service=&quot;checkout&quot;}</h2>")
        .contains("2 rows, 1 alert")
        // the floor the later run's journal measured, not the first's 0.4s
        .contains(">floor 0.6s</text>")
        .contains("2026-12-01 payments-outage: time to detect 2.5s")
        .contains("2026-11-29 payments-outage: time to detect 0.7s")
        .doesNotContain("CheckoutOrdersPending");
    int start = html.indexOf("<svg");
    Document svg =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(
                new ByteArrayInputStream(
                    html.substring(start, html.indexOf("</svg>") + 6)
                        .getBytes(StandardCharsets.UTF_8)));
    NodeList lines = svg.getElementsByTagName("polyline");
    String detect = null;
    for (int i = 0; i < lines.getLength(); i++) {
      Element line = (Element) lines.item(i);
      if (line.getAttribute("class").contains("trend-detect")) {
        detect = line.getAttribute("points");
      }
    }
    assertThat(detect).as("the time-to-detect line").isNotNull();
    assertThat(detect.split(" ")).hasSize(2);
  }

  @Test
  void htmlWithoutTheJournalsHasNoFloorLineAndSaysSo() throws Exception {
    Files.delete(later);
    Path copy = Files.copy(OUTAGE, dir.resolve("gone.json"));
    // only the later run's journal is gone: the floor falls back to the first run's journal
    assertThat(history("--format", "html", "--alert", PAGE).out()).contains(">floor 0.4s</text>");
    Files.delete(copy);

    CliRun run = history("--format", "html", "--alert", "PaymentsDown", "--since", "2026-12-01");
    assertThat(run.exit()).as(run.describe()).isZero();
    assertThat(run.out())
        .contains("floor: unknown (no readable journal)")
        .contains("(expect silent)")
        .doesNotContain("<svg"); // an alert expected to stay silent has no detection to plot
  }

  @Test
  void textKeepsTheTableAndSinceALongDurationKeepsBothRuns() {
    CliRun run = history("--alert", PAGE, "--since", "36500d");

    assertThat(run.exit()).as(run.describe()).isZero();
    assertThat(run.out()).contains("2026-11-29 21:20").contains("2026-12-01 09:00");
    assertThat(history("--alert", PAGE, "--since", "2099-01-01").out())
        .isEqualTo(
            "no detection history in "
                + dir.resolve("history.sqlite")
                + " for alert "
                + PAGE
                + " since 2099-01-01\n");
  }

  @Test
  void badInputIsOneLineAndExitTwo() {
    CliRun since = history("--since", "last quarter");
    CliRun clash = history("--output", "json", "--format", "csv");
    CliRun check = history("--check", "--format", "html");
    CliRun format = history("--format", "xml");

    for (CliRun run : List.of(since, clash, check, format)) {
      assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.INVALID);
      assertThat(run.out()).isEmpty();
      assertThat(run.err()).doesNotContain("at dev.firedrill");
    }
    assertThat(since.err())
        .isEqualTo(
            "firedrill history: --since last quarter: expected a day (2026-10-01), a time"
                + " (2026-10-01T06:00:00Z) or a duration back from now (90d)\n");
    assertThat(clash.err()).contains("--output json and --format csv disagree");
    assertThat(check.err()).contains("--check prints text or json, not html");
    assertThat(format.err()).contains("xml");
  }
}
