package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.fault.ProcessTable;
import dev.firedrill.lab.service.PaymentsService;
import dev.firedrill.lab.service.PaymentsSettings;
import dev.firedrill.lab.stack.LabStack;
import dev.firedrill.lab.stack.LabState;
import dev.firedrill.testing.LoadTarget;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The lab commands through Main's real command line, so errors go through its handlers. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LabCommandsTest {

  @TempDir Path dir;

  private static CliRun run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine line = Main.commandLine();
    line.setOut(new PrintWriter(out, true));
    line.setErr(new PrintWriter(err, true));
    int exit = line.execute(args);
    return new CliRun(exit, out.toString(), err.toString());
  }

  @Test
  void loadRefusesARemoteTargetInOneLine() {
    CliRun run =
        run("load", "--url", "http://example.com/checkout", "--rate", "10", "--duration", "5s");

    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "firedrill load: url http://example.com/checkout is not on loopback (expected "
                + "127.0.0.0/8, ::1 or localhost; pass --allow-remote to send load elsewhere)\n");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void loadRefusesAnUnboundedRun() {
    CliRun tooLong =
        run("load", "--url", "http://127.0.0.1:9/", "--rate", "10", "--duration", "25h");
    assertThat(tooLong.exit()).isEqualTo(2);
    assertThat(tooLong.err())
        .isEqualTo("firedrill load: --duration 25h is above the limit (expected at most 1d)\n");

    CliRun noDuration = run("load", "--url", "http://127.0.0.1:9/", "--rate", "10");
    assertThat(noDuration.exit()).isEqualTo(2);
    assertThat(noDuration.err())
        .startsWith("firedrill: Missing required option: '--duration=DURATION'");
  }

  @Test
  void loadSendsAndPrintsASummary() {
    try (LoadTarget target = LoadTarget.start()) {
      CliRun run =
          run(
              "load",
              "--url",
              target.url("/checkout").toString(),
              "--rate",
              "50",
              "--duration",
              "1s",
              "--method",
              "post",
              "--experiment-id",
              "drill-9",
              "--metrics",
              "127.0.0.1:0");

      assertThat(run.exit()).as(run.describe()).isEqualTo(0);
      assertThat(run.out())
          .containsPattern("load: metrics on http://127\\.0\\.0\\.1:\\d+/metrics\n")
          .contains(
              "load: POST "
                  + target.url("/checkout")
                  + ", 50/s for 1s: 50 requests planned, at most 1000 in flight\n")
          .containsPattern(
              "rate: target 50/s, achieved \\d+(\\.\\d)?/s; sent 50, unsent 0, unfinished 0\n")
          .contains("outcomes: ok 50, error 0, timeout 0, refused 0\n")
          .containsPattern(
              "latency from the intended send time: p50 [\\d.]+ms, p99 [\\d.]+ms, max [\\d.]+ms; send lag");
      assertThat(target.arrivals()).isEqualTo(50);
      assertThat(target.lastBaggage()).isEqualTo("chaos.experiment.id=drill-9");
    }
  }

  @Test
  void paymentsAndCheckoutRunForTheirLifetime() {
    CliRun payments =
        run("lab", "payments", "--latency", "20ms", "--error-ratio", "0.5", "--lifetime", "200ms");
    assertThat(payments.exit()).as(payments.describe()).isEqualTo(0);
    assertThat(payments.out())
        .matches(
            "payments: POST http://127\\.0\\.0\\.1:\\d+/pay, metrics on "
                + "http://127\\.0\\.0\\.1:\\d+/metrics; latency 20ms, error ratio 0\\.5; stops on SIGINT/SIGTERM or after 200ms\n"
                + "payments: stopped \\(lifetime 200ms ended\\), 0 payment request\\(s\\) served\n");

    try (PaymentsService service = PaymentsService.start(PaymentsSettings.defaults())) {
      CliRun checkout =
          run(
              "lab",
              "checkout",
              "--payments",
              service.url().toString(),
              "--timeout",
              "250ms",
              "--lifetime",
              "200ms");
      assertThat(checkout.exit()).as(checkout.describe()).isEqualTo(0);
      assertThat(checkout.out())
          .startsWith("checkout: POST http://127.0.0.1:")
          .contains("/checkout -> " + service.url() + ", metrics on http://127.0.0.1:")
          .contains("; timeout 250ms; stops on SIGINT/SIGTERM or after 200ms\n")
          .endsWith("checkout: stopped (lifetime 200ms ended)\n");
    }
  }

  @Test
  void badServiceOptionsAreOneLineErrors() {
    CliRun ratio = run("lab", "payments", "--error-ratio", "1.5", "--lifetime", "1s");
    assertThat(ratio.exit()).isEqualTo(2);
    assertThat(ratio.err())
        .isEqualTo(
            "firedrill lab payments: payments error ratio 1.5 is not usable (expected a number from 0 to 1)\n");

    CliRun listen = run("lab", "payments", "--listen", "example.com:80", "--lifetime", "1s");
    assertThat(listen.exit()).isEqualTo(2);
    assertThat(listen.err())
        .isEqualTo(
            "firedrill lab payments: --listen example.com:80 is not usable (expected HOST:PORT "
                + "with an IP address or localhost, such as 127.0.0.1:9000)\n");

    CliRun noPayments =
        run("lab", "checkout", "--payments", "ftp://127.0.0.1/", "--lifetime", "1s");
    assertThat(noPayments.exit()).isEqualTo(2);
    assertThat(noPayments.err())
        .isEqualTo(
            "firedrill lab checkout: payments URL \"ftp://127.0.0.1/\" is not usable "
                + "(expected http://HOST:PORT)\n");

    CliRun latency = run("lab", "payments", "--latency", "fast");
    assertThat(latency.exit()).isEqualTo(2);
    assertThat(latency.err())
        .isEqualTo(
            "firedrill lab payments: --latency fast is not a duration (expected such as 300ms, 5s, 10m or 24h)\n");
  }

  @Test
  void anUnknownStackIsAOneLineError() {
    CliRun demo = run("demo", "--stack", "docker");
    assertThat(demo.exit()).as(demo.describe()).isEqualTo(2);
    assertThat(demo.err())
        .isEqualTo(
            "firedrill demo: --stack docker is not usable (expected auto, real or embedded)\n");

    CliRun up = run("lab", "up", "--stack", "docker");
    assertThat(up.exit()).as(up.describe()).isEqualTo(2);
    assertThat(up.err())
        .isEqualTo(
            "firedrill lab up: --stack docker is not usable (expected auto, real or embedded)\n");
  }

  @Test
  void aCompatModeOtherThanTwoOrThreeIsAOneLineError() {
    CliRun demo = run("demo", "--stack", "embedded", "--compat", "4");
    assertThat(demo.exit()).as(demo.describe()).isEqualTo(2);
    assertThat(demo.err())
        .isEqualTo(
            "firedrill demo: --compat 4 is not usable (expected 2 or 3, the Prometheus major"
                + " version to answer as)\n");

    CliRun up = run("lab", "up", "--compat", "1");
    assertThat(up.exit()).as(up.describe()).isEqualTo(2);
    assertThat(up.err())
        .isEqualTo(
            "firedrill lab up: --compat 1 is not usable (expected 2 or 3, the Prometheus major"
                + " version to answer as)\n");
  }

  @Test
  void labDownWithoutALabSaysSoAndSucceeds() {
    CliRun run = run("lab", "down", "--state-dir", dir.toString());

    assertThat(run.exit()).as(run.describe()).isEqualTo(0);
    assertThat(run.out()).isEqualTo(dir.resolve("lab.json") + ": no lab is up\n");
  }

  @Test
  void labDownStopsWhatTheStateFileNamesAndDropsTheFile() throws Exception {
    Process sleeper = new ProcessBuilder("sleep", "60").start();
    try {
      LabState.in(dir)
          .write(
              List.of(
                  new LabStack.Component(
                      "sleeper", sleeper.pid(), "-", dir.resolve("sleeper.log"))),
              ProcessTable.system());

      CliRun run = run("lab", "down", "--state-dir", dir.toString());

      assertThat(run.exit()).as(run.describe()).isEqualTo(0);
      assertThat(run.out())
          .isEqualTo("lab: sleeper stopped\nlab is down (logs stay in " + dir + ")\n");
      assertThat(sleeper.waitFor(5, TimeUnit.SECONDS)).isTrue();
      assertThat(dir.resolve("lab.json")).doesNotExist();
    } finally {
      sleeper.destroyForcibly();
    }
  }

  @Test
  void aStateFileThatIsNotOneIsAOneLineErrorAndStays() throws Exception {
    Path state = Files.writeString(dir.resolve("lab.json"), "[]");

    CliRun run = run("lab", "down", "--state-dir", dir.toString());

    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "firedrill lab down: "
                + state
                + ": not a lab state file: expected a JSON object with a \"components\" list\n");
    assertThat(state).exists();
  }

  @Test
  void labUpRefusesADirectoryWhereALabIsUp() throws Exception {
    Path state = Files.writeString(dir.resolve("lab.json"), "{\"components\": []}");

    CliRun run = run("lab", "up", "--state-dir", dir.toString(), "--stack", "embedded");

    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(state + ": a lab is already up (run 'firedrill lab down' first)\n");
  }
}
