package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class RoutesCommandTest {

  static final String LAB = "fixtures/lab/alertmanager.yml";
  static final String RICH = "fixtures/testdata/routes/rich.yml";

  /** {@code firedrill routes ARGS} in process, through Main's command line. */
  static CliRun routes(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine line = Main.commandLine();
    line.setOut(new PrintWriter(out, true));
    line.setErr(new PrintWriter(err, true));
    String[] all = new String[args.length + 1];
    all[0] = "routes";
    System.arraycopy(args, 0, all, 1, args.length);
    int exit = line.execute(all);
    return new CliRun(exit, out.toString(), err.toString());
  }

  @Test
  void printsTheReceiversOnOneLine() {
    CliRun run = routes(LAB, "team=payments", "alertname=PaymentsLatency");
    assertThat(run.exit()).as(run.describe()).isZero();
    assertThat(run.out()).isEqualTo("team-payments\n");
    assertThat(routes(LAB).out()).isEqualTo("unrouted\n");
    assertThat(routes(RICH, "team=payments", "severity=\"page\"", "env=prod").out())
        .isEqualTo("audit,payments-pager\n");
  }

  @Test
  void printsTheMatchingTreeTheWholeTreeAndDetailsOnRequest() {
    CliRun run = routes(RICH, "--tree", "team=payments", "service=ledger", "env=prod");
    assertThat(run.out())
        .isEqualTo(
            """
        Matching routes:
        .
        └── default-route
            └── {team="payments"}
                ├── {service="ledger"}  receiver: ledger
                └── {service=~"^(?:ledger|refunds)$"}  receiver: payments-backend


        ledger,payments-backend
        """);
    assertThat(routes(LAB, "--show").out())
        .isEqualTo(
            """
        Routing tree:
        .
        └── default-route  receiver: unrouted
            ├── {team="payments"}  receiver: team-payments
            └── {team="checkout"}  receiver: team-checkout

        unrouted
        """);
    assertThat(routes(RICH, "--details", "team=payments", "service=api", "env=prod").out())
        .isEqualTo(
            """
        team-payments
        /route/routes/1/routes/3  {env=~"prod|staging",service="api"}  receiver: team-payments  group_by: [...]  \
        group_wait: 10s  group_interval: 1m  repeat_interval: 3h  continue: true  mute_time_intervals: [weekends]
        """);
  }

  @Test
  void aBadFileIsExitTwoWithOneLine(@TempDir Path dir) throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("am.yml"),
            """
        route:
          receiver: default
          routes:
            - matchers: ['team="payments']
        receivers: [{name: default}]
        """);
    CliRun run = routes(file.toString(), "team=payments");
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            file
                + ": /route/routes/0/matchers/0: matcher value contains unescaped double quote:"
                + " \"payments (expected matchers such as team=\"payments\", severity=~\"critical|page\" or env!=\"dev\","
                + " or \"service.name\"=\"checkout\"; read as Alertmanager's fallback matcher grammar) (line 4, column 18)\n");
    CliRun missing = routes(dir.resolve("none.yml").toString());
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err())
        .isEqualTo(dir.resolve("none.yml") + ": /: cannot read: no such file\n");
  }

  @Test
  void labelsMustBeNameEqualsValue() {
    CliRun run = routes(LAB, "team=~pay");
    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "firedrill routes: label team=~pay: expected name=value, such as team=payments\n");
    assertThat(routes(LAB, "team").err())
        .isEqualTo(
            "firedrill routes: label team: bad matcher format: team (expected name=value, such as team=payments)\n");
    assertThat(routes(LAB, "team=checkout", "team=\"payments\"").out())
        .isEqualTo("team-payments\n");
  }

  @Test
  void utf8LabelsRouteAndTheFallbacksWarningsGoToStderr() {
    CliRun run =
        routes(
            "fixtures/testdata/routes/utf8.yml", "service.name=checkout", "\"k8s.pod name\"=api-1");
    assertThat(run.exit()).as(run.describe()).isZero();
    assertThat(run.out()).isEqualTo("checkout-api\n");
    assertThat(run.err()).isEmpty();

    CliRun fallback = routes("fixtures/testdata/routes/fallback.yml", "foo=bar baz");
    assertThat(fallback.out()).isEqualTo("spaced\n");
    assertThat(fallback.err().lines())
        .hasSize(3)
        .first()
        .asString()
        .isEqualTo(
            "warning:"
                + " fixtures/testdata/routes/fallback.yml: /route/routes/0/matchers/0: the UTF-8 and classic matcher parsers"
                + " disagree on \"a=\\\"\\\\t\\\"\"; Alertmanager keeps the classic reading a=\"\\\\t\" (line 8, column 18)");
  }

  @Test
  void theMatcherGrammarIsChosenByName() {
    CliRun strict = routes("fixtures/testdata/routes/fallback.yml", "--matchers", "utf8", "a=b");
    assertThat(strict.exit()).isEqualTo(2);
    assertThat(strict.err())
        .startsWith(
            "fixtures/testdata/routes/fallback.yml: /route/routes/1/matchers/0: 8:11:"
                + " unexpected baz: expected a comma or close brace (expected matchers such as");
    CliRun classicLabel = routes(LAB, "--matchers", "classic", "service.name=x");
    assertThat(classicLabel.err())
        .isEqualTo(
            "firedrill routes: label service.name=x: bad matcher format: service.name=x"
                + " (expected name=value, such as team=payments)\n");
    CliRun unknown = routes(LAB, "--matchers", "strict");
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.err())
        .isEqualTo("firedrill routes: --matchers strict: expected classic, utf8 or fallback\n");
  }
}
