package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.fault.FaultKinds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code firedrill init}: a scaffold valid as written for every fault kind, and from rules. */
class InitCommandTest {

  @TempDir Path dir;

  static Stream<String> kinds() {
    return FaultKinds.installed().names().stream();
  }

  @ParameterizedTest
  @MethodSource("kinds")
  void theScaffoldOfEveryInstalledKindValidatesAsWrittenAgainstLoaderAndSchema(String kind)
      throws IOException {
    Path file = dir.resolve(kind + ".yaml");

    CliRun init =
        CliRun.of(
            "init",
            "--fault",
            kind,
            "--prometheus",
            "http://127.0.0.1:9090",
            "-o",
            file.toString());

    assertThat(init.exit()).as(init.describe()).isZero();
    assertThat(init.out()).startsWith("wrote " + file);
    String text = Files.readString(file);
    assertThat(text).contains("kind: " + kind).contains("TODO").contains("yaml-language-server");
    CliRun validate = CliRun.of("validate", file.toString());
    assertThat(validate.exit()).as(text + "\n" + validate.describe()).isZero();
    assertThat(ExperimentSchemaTest.schemaErrors(file.toString(), text)).isEmpty();
  }

  @Test
  void aPrometheusThatIsNoUrlIsRefusedBeforeAnythingIsWritten() {
    Path file = dir.resolve("x.yaml");

    CliRun init =
        CliRun.of(
            "init",
            "--fault",
            "http-error",
            "--prometheus",
            "prometheus:9090",
            "-o",
            file.toString());

    assertThat(init.exit()).as(init.describe()).isEqualTo(ExitCode.INVALID);
    assertThat(init.err())
        .isEqualTo(
            "firedrill init: --prometheus prometheus:9090: expected an http or https URL such as"
                + " http://127.0.0.1:9090\n");
    assertThat(file).doesNotExist();
  }

  @Test
  void fromRulesFillsTheAlertItsFloorAndASteadyStateOnItsRecordingRules() throws IOException {
    Path file = dir.resolve("burn.yaml");

    CliRun init =
        CliRun.of(
            "init",
            "--fault",
            "http-error",
            "--from-rules",
            "alert-rules",
            "fixtures/lab/recording-rules.yml",
            "--alert",
            "CheckoutErrorBudgetBurn",
            "--scrape-interval",
            "1s",
            "--evaluation-interval",
            "1s",
            "-o",
            file.toString());

    assertThat(init.exit()).as(init.describe()).isZero();
    String text = Files.readString(file);
    assertThat(text)
        .contains("- alert: \"CheckoutErrorBudgetBurn\"")
        .contains("Its floor, the earliest it can fire with scrape 1s")
        .contains("query: \"service:http_error_ratio:rate30s{service=\\\"checkout\\\"}\"")
        .contains("query: \"service:http_error_ratio:rate5s{service=\\\"checkout\\\"}\"")
        .contains("max: 0.0144")
        .contains("runbook_url: \"https://runbooks.example.com/checkout/error-budget-burn\"");
    CliRun validate = CliRun.of("validate", file.toString());
    assertThat(validate.exit()).as(text + "\n" + validate.describe()).isZero();
  }

  @Test
  void anUnknownAlertNamesTheNearest() {
    CliRun init =
        CliRun.of(
            "init",
            "--fault",
            "http-error",
            "--from-rules",
            "alert-rules",
            "--alert",
            "CheckoutErrorBudgetBrun",
            "-o",
            "-");

    assertThat(init.exit()).isEqualTo(ExitCode.INVALID);
    assertThat(init.err())
        .contains("--alert CheckoutErrorBudgetBrun")
        .contains("CheckoutErrorBudgetBurn");
  }

  @Test
  void anExistingFileIsNeverOverwritten() throws IOException {
    Path file = Files.writeString(dir.resolve("mine.yaml"), "mine");

    CliRun init = CliRun.of("init", "--fault", "cpu-burn", "-o", file.toString());

    assertThat(init.exit()).isEqualTo(ExitCode.INVALID);
    assertThat(Files.readString(file)).isEqualTo("mine");
  }
}
