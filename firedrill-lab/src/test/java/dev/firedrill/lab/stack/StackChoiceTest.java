package dev.firedrill.lab.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackChoiceTest {

  private static final List<String> FIREDRILL =
      List.of("java", "-cp", "firedrill.jar", "dev.firedrill.cli.Main");
  private static final Runner EMBEDDED = new Runner.Embedded(FIREDRILL);

  @TempDir Path bin;

  private Path executable(String name) throws IOException {
    Path file = bin.resolve(name);
    Files.writeString(file, "#!/bin/sh\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }

  private StackChoice choose(StackChoice.Mode mode, Map<String, String> env) {
    return StackChoice.choose(mode, env, FIREDRILL);
  }

  @Test
  void autoRunsTheRealBinariesOnThePath() throws IOException {
    Path prometheus = executable("prometheus");
    Path alertmanager = executable("prometheus-alertmanager");

    StackChoice choice = choose(StackChoice.Mode.AUTO, Map.of("PATH", "/nonexistent:" + bin));

    assertThat(choice.prometheus()).isEqualTo(new Runner.Binary(prometheus));
    assertThat(choice.alertmanager()).isEqualTo(new Runner.Binary(alertmanager));
    assertThat(choice.lines())
        .containsExactly("Prometheus: real, " + prometheus, "Alertmanager: real, " + alertmanager);
  }

  @Test
  void autoWithoutBinariesRunsTheEmbeddedOnesAndSaysHowToGetTheRealOnes() {
    StackChoice choice = choose(StackChoice.Mode.AUTO, Map.of("PATH", bin.toString()));

    assertThat(choice.prometheus()).isEqualTo(EMBEDDED);
    assertThat(choice.alertmanager()).isEqualTo(EMBEDDED);
    assertThat(choice.lines())
        .containsExactly(
            "Prometheus: embedded (no prometheus on PATH; sudo apt-get install prometheus for the real one),"
                + " PromQL of Prometheus 3",
            "Alertmanager: embedded (no prometheus-alertmanager on PATH; sudo apt-get install prometheus-alertmanager"
                + " for the real one)");
  }

  @Test
  void autoChoosesEachServerOnItsOwn() throws IOException {
    Path prometheus = executable("prometheus");

    StackChoice choice = choose(StackChoice.Mode.AUTO, Map.of("PATH", bin.toString()));

    assertThat(choice.prometheus()).isEqualTo(new Runner.Binary(prometheus));
    assertThat(choice.alertmanager()).isEqualTo(EMBEDDED);
  }

  @Test
  void aFileThatIsNotExecutableIsNotABinary() throws IOException {
    Files.writeString(bin.resolve("prometheus"), "not a program");

    assertThat(choose(StackChoice.Mode.AUTO, Map.of("PATH", bin.toString())).prometheus())
        .isEqualTo(EMBEDDED);
  }

  @Test
  void theEnvironmentVariablesNameBinariesOutsideThePath() {
    Path prometheus = Path.of("/opt/prometheus/prometheus");
    Path alertmanager = Path.of("/opt/alertmanager/alertmanager");

    StackChoice choice =
        choose(
            StackChoice.Mode.AUTO,
            Map.of(
                "PATH",
                bin.toString(),
                "FIREDRILL_PROMETHEUS",
                prometheus.toString(),
                "FIREDRILL_ALERTMANAGER",
                alertmanager.toString()));

    assertThat(choice.prometheus()).isEqualTo(new Runner.Binary(prometheus));
    assertThat(choice.alertmanager()).isEqualTo(new Runner.Binary(alertmanager));
  }

  @Test
  void embeddedIgnoresInstalledBinaries() throws IOException {
    executable("prometheus");
    executable("prometheus-alertmanager");

    StackChoice choice = choose(StackChoice.Mode.EMBEDDED, Map.of("PATH", bin.toString()));

    assertThat(choice.prometheus()).isEqualTo(EMBEDDED);
    assertThat(choice.alertmanager()).isEqualTo(EMBEDDED);
    assertThat(choice.lines())
        .containsExactly(
            "Prometheus: embedded (--stack embedded), PromQL of Prometheus 3",
            "Alertmanager: embedded (--stack embedded)");
  }

  @Test
  void realRefusesAMissingBinaryInOneLine() throws IOException {
    executable("prometheus");

    assertThatThrownBy(() -> choose(StackChoice.Mode.REAL, Map.of("PATH", bin.toString())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "the prometheus-alertmanager binary is not on the PATH; install it with bin/install-deps (or"
                + " apt-get install prometheus-alertmanager), or set FIREDRILL_ALERTMANAGER to its path; or run the"
                + " embedded one with --stack embedded");
  }

  @Test
  void anEmbeddedPrometheusAnswersAsTheModeAskedForAndSaysSo() {
    StackChoice choice =
        StackChoice.choose(StackChoice.Mode.EMBEDDED, Map.of("PATH", bin.toString()), FIREDRILL, 2);

    assertThat(choice.prometheus()).isEqualTo(new Runner.Embedded(FIREDRILL, 2));
    assertThat(choice.lines().get(0))
        .isEqualTo("Prometheus: embedded (--stack embedded), PromQL of Prometheus 2");
    assertThat(
            LocalPrometheus.command(
                choice.prometheus(), Path.of("p.yml"), Path.of("data"), "127.0.0.1:9", List.of()))
        .containsSubsequence("prometheus", "--config", "p.yml", "--compat", "2");
    assertThatThrownBy(() -> new Runner.Embedded(FIREDRILL, 4))
        .hasMessage("compatibility mode 4 is not one of 2 or 3 (the Prometheus major version)");
  }
}
