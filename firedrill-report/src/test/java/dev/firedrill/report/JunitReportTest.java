package dev.firedrill.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/** The drill as JUnit XML, exactly, and well-formed with counts that match its cases. */
class JunitReportTest {

  @Test
  void aHeldDrillIsThreePassingCases() throws Exception {
    String xml = JunitReport.render(MarkdownReportTest.journal("payments-latency"));

    assertThat(xml)
        .isEqualTo(
            """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuite name="firedrill.payments-latency" tests="3" failures="0" errors="0" skipped="0" time="30.494" timestamp="2026-11-29T21:19:15">
          <properties>
            <property name="title" value="50 ms more payments latency on half the calls keeps checkout within its SLO"/>
            <property name="verdict" value="held"/>
            <property name="reason" value="10 measurements while the faults were on within steady state; recovered 0.1s after the rollback"/>
            <property name="observability" value="held"/>
            <property name="rollback_ok" value="true"/>
          </properties>
          <testcase classname="firedrill.payments-latency" name="steady state: Checkout absorbs 50 ms of extra payments latency on half its calls; no order ends pending." time="20.240"/>
          <testcase classname="firedrill.payments-latency.alerts" name="CheckoutErrorBudgetBurn stays silent for 30s" time="0.000"/>
          <testcase classname="firedrill.payments-latency.alerts" name="CheckoutOrdersPending stays silent for 30s" time="0.000"/>
        </testsuite>
        """);
    assertCountsMatch(xml);
  }

  @Test
  void anAbortedDrillFailsItsHypothesisCaseWithTheReason() throws Exception {
    String xml = JunitReport.render(MarkdownReportTest.journal("payments-outage"));

    assertThat(xml)
        .isEqualTo(
            """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuite name="firedrill.payments-outage" tests="4" failures="1" errors="0" skipped="0" time="30.313" timestamp="2026-11-29T21:20:02">
          <properties>
            <property name="title" value="A payments outage is stopped by the burn-rate guard within one measurement"/>
            <property name="verdict" value="aborted"/>
            <property name="reason" value="burn rate 62.72 above 14.4 (error ratio 0.06272 against an objective of 99.9%); recovered 5.3s after the rollback"/>
            <property name="observability" value="held"/>
            <property name="rollback_ok" value="true"/>
          </properties>
          <testcase classname="firedrill.payments-outage" name="steady state: Checkout survives payments answering 503 (it will not; the guard is what is being tested)." time="1.263">
            <failure message="burn rate 62.72 above 14.4 (error ratio 0.06272 against an objective of 99.9%); recovered 5.3s after the rollback" type="aborted"/>
          </testcase>
          <testcase classname="firedrill.payments-outage.alerts" name="CheckoutErrorBudgetBurn{service=&quot;checkout&quot;} fires within 30s" time="0.700"/>
          <testcase classname="firedrill.payments-outage.alerts" name="CheckoutOrdersPending fires within 30s" time="5.700"/>
          <testcase classname="firedrill.payments-outage.alerts" name="PaymentsDown stays silent for 30s" time="0.000"/>
        </testsuite>
        """);
    assertCountsMatch(xml);
  }

  @Test
  void aMissedAndAMisroutedAlertAreFailuresOfTheirKind() throws Exception {
    ObjectNode journal = Journals.tree("payments-outage");
    ObjectNode burn = (ObjectNode) journal.at("/detection/alerts/0");
    burn.put("receiver", "NO")
        .put("receiver_detail", "routed to team-payments, expected team-checkout")
        .put("held", false)
        .put("reason", "misrouted: routed to team-payments, expected team-checkout");
    ObjectNode pending = (ObjectNode) journal.at("/detection/alerts/1");
    pending.put("fired", false).put("held", false).put("reason", "missed: did not fire within 30s");
    pending.remove("time_to_detect_s");
    String xml = JunitReport.render(Journals.record(journal));

    assertThat(xml)
        .contains(
            """
          <testcase classname="firedrill.payments-outage.alerts" name="CheckoutErrorBudgetBurn{service=&quot;checkout&quot;} fires within 30s" time="0.700">
            <failure message="misrouted: routed to team-payments, expected team-checkout" type="misrouted"/>
          </testcase>
          <testcase classname="firedrill.payments-outage.alerts" name="CheckoutOrdersPending fires within 30s" time="0.000">
            <failure message="missed: did not fire within 30s" type="missed"/>
          </testcase>
        """);
    assertThat(xml).contains("tests=\"4\" failures=\"3\" errors=\"0\" skipped=\"0\"");
    assertCountsMatch(xml);
  }

  @Test
  void anAlertTheStackCouldNotShowIsAnErrorNotAFailureInEveryReport() throws Exception {
    ObjectNode journal = Journals.tree("payments-outage");
    ObjectNode pending = (ObjectNode) journal.at("/detection/alerts/1");
    String reason = "unknown: 3 of 3 reads of the alerts failed (the last: Alertmanager at x: 503)";
    pending.put("fired", false).put("held", false).put("unknown", true).put("reason", reason);
    pending.remove("time_to_detect_s");
    DrillRecord record = Journals.record(journal);

    String xml = JunitReport.render(record);
    assertThat(xml)
        .contains(
            """
          <testcase classname="firedrill.payments-outage.alerts" name="CheckoutOrdersPending fires within 30s" time="0.000">
            <error message="unknown: 3 of 3 reads of the alerts failed (the last: Alertmanager at x: 503)" type="unknown"/>
          </testcase>
        """);
    assertCountsMatch(xml);
    assertThat(HtmlReport.render(record))
        .contains("<tr class=\"unknown\" data-alert=\"CheckoutOrdersPending\">")
        .contains("<td>unknown: " + reason + "</td>")
        .doesNotContain("FAILED: " + reason);
    assertThat(MarkdownReport.render(record))
        .contains("unknown: " + reason)
        .doesNotContain("did not fire within 30s (gap)");
  }

  @Test
  void markupInTheTitleAndReasonIsEscaped() throws Exception {
    ObjectNode journal = Journals.tree("payments-outage");
    ((ObjectNode) journal.get("experiment"))
        .put("title", "<script>alert('x')</script> & \"quoted\"");
    journal.put("reason", "</failure><injected/> burn rate 62.72");
    String xml = JunitReport.render(Journals.record(journal));

    assertThat(xml)
        .contains(
            "<property name=\"title\" value=\"&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; "
                + "&quot;quoted&quot;\"/>");
    assertThat(xml)
        .contains(
            "<failure message=\"&lt;/failure&gt;&lt;injected/&gt; burn rate 62.72\" type=\"aborted\"/>");
    assertThat(xml).doesNotContain("<script>", "<injected/>");
    assertCountsMatch(xml);
  }

  @Test
  void anInconclusiveOrRefusedDrillIsAnErrorAndOnlyNotRunIsSkipped() throws Exception {
    for (String verdict : new String[] {"inconclusive", "refused"}) {
      ObjectNode journal = Journals.tree("payments-outage");
      journal.put("verdict", verdict);
      journal.put("reason", "the steady state could not be measured");
      String xml = JunitReport.render(Journals.record(journal));

      assertThat(xml)
          .contains(
              "<error message=\""
                  + verdict
                  + ": the steady state could not be measured\" type=\""
                  + verdict
                  + "\"/>");
      assertThat(xml).doesNotContain("<skipped");
      assertCountsMatch(xml);
    }
    ObjectNode journal = Journals.tree("payments-outage");
    journal.put("verdict", "not-run");
    journal.put("reason", "outside steady state before injection");
    String xml = JunitReport.render(Journals.record(journal));
    assertThat(xml)
        .contains("<skipped message=\"not-run: outside steady state before injection\"/>");
    assertCountsMatch(xml);
  }

  /** Parses the XML (so it is well-formed) and checks the suite's counts against its cases. */
  private static void assertCountsMatch(String xml) throws Exception {
    Document doc =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    Element suite = doc.getDocumentElement();
    assertThat(suite.getTagName()).isEqualTo("testsuite");
    assertThat(suite.getAttribute("name")).startsWith("firedrill.");
    assertThat(Integer.parseInt(suite.getAttribute("tests")))
        .isEqualTo(doc.getElementsByTagName("testcase").getLength());
    assertThat(Integer.parseInt(suite.getAttribute("failures")))
        .isEqualTo(doc.getElementsByTagName("failure").getLength());
    assertThat(Integer.parseInt(suite.getAttribute("errors")))
        .isEqualTo(doc.getElementsByTagName("error").getLength());
    assertThat(Integer.parseInt(suite.getAttribute("skipped")))
        .isEqualTo(doc.getElementsByTagName("skipped").getLength());
    assertThat(Double.parseDouble(suite.getAttribute("time"))).isGreaterThanOrEqualTo(0);
  }
}
