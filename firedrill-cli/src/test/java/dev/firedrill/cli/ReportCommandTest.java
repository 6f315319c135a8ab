package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportCommandTest {

  private static final String JOURNAL = "fixtures/testdata/journals/payments-outage.journal.json";

  @TempDir Path dir;

  @Test
  void writesEachFormatToTheOutputFileAndNamesIt() throws IOException {
    for (String format : new String[] {"html", "md", "junit"}) {
      Path output = dir.resolve("report." + format);
      CliRun run = CliRun.of("report", JOURNAL, "--format", format, "--output", output.toString());

      assertThat(run.exit()).as(run.describe()).isZero();
      assertThat(run.out()).isEqualTo("report: " + output.toAbsolutePath() + "\n");
      assertThat(run.err()).isEmpty();
      assertThat(Files.readString(output))
          .startsWith(
              switch (format) {
                case "html" -> "<!DOCTYPE html>";
                case "md" -> "## Experiment: A payments outage";
                default ->
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"firedrill.payments-outage\"";
              });
    }
  }

  @Test
  void withOutputDashTheReportGoesToStdout() {
    CliRun run = CliRun.of("report", JOURNAL, "--format", "md", "-o", "-");

    assertThat(run.exit()).as(run.describe()).isZero();
    assertThat(run.out()).startsWith("## Experiment: A payments outage").contains("### Actions");
  }

  @Test
  void withoutAnOutputEachFormatIsWrittenBesideTheJournalAndNamed() throws IOException {
    Path journal = Files.copy(Path.of(JOURNAL), dir.resolve("payments-outage.json"));
    for (String[] format :
        new String[][] {
          {"html", "payments-outage.html"},
          {"md", "payments-outage.md"},
          {"junit", "payments-outage.junit.xml"}
        }) {
      CliRun run = CliRun.of("report", journal.toString(), "--format", format[0]);

      Path written = dir.resolve(format[1]);
      assertThat(run.exit()).as(run.describe()).isZero();
      assertThat(run.out()).isEqualTo("report: " + written.toAbsolutePath() + "\n");
      assertThat(written).isNotEmptyFile();
    }
    assertThat(Files.readString(dir.resolve("payments-outage.html"))).startsWith("<!DOCTYPE html>");
  }

  @Test
  void aMissingJournalIsOneLineAndExitTwo() {
    Path missing = dir.resolve("gone.journal.json");
    CliRun run = CliRun.of("report", missing.toString());

    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            "firedrill report: "
                + missing.toAbsolutePath()
                + ": no such file (expected a firedrill journal)\n");
  }

  @Test
  void aMalformedJournalNamesWhatWasExpected() throws IOException {
    Path bad =
        Files.writeString(
            dir.resolve("bad.json"), "{\"firedrill_journal\": 1, \"experiment\": {\"id\": 7}}");
    CliRun run = CliRun.of("report", bad.toString());

    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "firedrill report: "
                + bad.toAbsolutePath()
                + ": not a firedrill journal: expected experiment.slis (an array)\n");
  }

  @Test
  void anUnknownFormatListsTheKnownOnes() {
    CliRun run = CliRun.of("report", JOURNAL, "--format", "pdf");

    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.err())
        .startsWith(
            "firedrill: Invalid value for option '--format': expected html, md, junit, got 'pdf'\n");
  }
}
