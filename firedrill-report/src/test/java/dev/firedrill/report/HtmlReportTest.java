package dev.firedrill.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** What the HTML holds as text; how it renders is {@code HtmlReportBrowserTest}'s. */
class HtmlReportTest {

  @Test
  void markupInTitleReasonsAndQueriesStaysText() throws IOException {
    ObjectNode journal = Journals.tree("payments-outage");
    ObjectNode experiment = (ObjectNode) journal.get("experiment");
    experiment.put("title", "<script>alert(1)</script><img src=x onerror=alert(2)>");
    ((ObjectNode) experiment.at("/slis/0")).put("query", "sum(x) </code><script>alert(3)</script>");
    journal.put("reason", "\"><svg onload=alert(4)>");
    ((ObjectNode) journal.at("/detection/alerts/0"))
        .put("reason", "<b onmouseover=alert(5)>late</b>");

    String html = HtmlReport.render(Journals.record(journal));

    assertThat(html).doesNotContain("<script", "<img", "<svg onload", "<b onmouseover");
    assertThat(html)
        .contains(
            "<h1 id=\"title\">&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;</h1>",
            "<code>sum(x) &lt;/code&gt;&lt;script&gt;alert(3)&lt;/script&gt;</code>",
            "<span id=\"verdict-reason\">&quot;&gt;&lt;svg onload=alert(4)&gt;</span>");
  }

  @Test
  void theReportLoadsNothingFromAnywhere() throws IOException {
    String html = HtmlReport.render(JournalReader.read(Journals.path("payments-outage")));

    assertThat(html).doesNotContainPattern("(?i)<(script|link|img|iframe|object)\\b");
    assertThat(html).doesNotContainPattern("(?i)(src|href)\\s*=");
    assertThat(html).doesNotContainPattern("(?i)url\\(");
    assertThat(html)
        .contains(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                + "style-src 'unsafe-inline'\">");
  }
}
