package dev.firedrill.lab.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.fault.ProcessId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LabStateTest {

  @TempDir Path dir;

  @Test
  void theProcessesComeBackInTheirStartOrderWithTheirStartTimes() throws IOException {
    FakeProcesses table = new FakeProcesses();
    ProcessId payments = table.start(41, FakeProcesses.Temper.EXITS_ON_TERM);
    ProcessId prometheus = table.start(43, FakeProcesses.Temper.EXITS_ON_TERM);
    LabState state = LabState.in(dir.resolve("lab"));

    state.write(
        List.of(
            new LabStack.Component(
                "payments", 41, "http://127.0.0.1:8081", Path.of("/l/payments.log")),
            new LabStack.Component(
                "prometheus", 43, "http://127.0.0.1:9090", Path.of("/l/prometheus.log"))),
        table);

    assertThat(state.file()).isEqualTo(dir.resolve("lab/lab.json"));
    assertThat(state.exists()).isTrue();
    assertThat(state.read())
        .containsExactly(
            new LabState.Process(
                "payments", payments, "http://127.0.0.1:8081", Path.of("/l/payments.log")),
            new LabState.Process(
                "prometheus", prometheus, "http://127.0.0.1:9090", Path.of("/l/prometheus.log")));
  }

  @Test
  void aComponentGoneBeforeTheWriteIsRecordedWithoutAStartTime() throws IOException {
    LabState state = LabState.in(dir);
    state.write(
        List.of(new LabStack.Component("checkout", 77, "http://127.0.0.1:8080", Path.of("c.log"))),
        new FakeProcesses());

    assertThat(Files.readString(state.file())).doesNotContain("start");
    assertThat(state.read()).extracting(LabState.Process::id).containsExactly(new ProcessId(77, 0));
  }

  @Test
  void aFileThatIsNotALabStateSaysSoAndWhere() throws IOException {
    LabState state = LabState.in(dir);
    Files.writeString(state.file(), "{\"components\": 3}");
    assertThatThrownBy(state::read)
        .isInstanceOf(IOException.class)
        .hasMessage(
            state.file()
                + ": not a lab state file: expected a JSON object with a \"components\" list");

    Files.writeString(state.file(), "components: [");
    assertThatThrownBy(state::read)
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith(
            state.file() + ": not a lab state file: expected the JSON 'firedrill lab up' writes, ");
  }

  @Test
  void deleteEndsTheLabButKeepsItsDirectory() throws IOException {
    LabState state = LabState.in(dir);
    state.write(List.of(), new FakeProcesses());
    Files.writeString(dir.resolve("prometheus.log"), "kept");

    state.delete();

    assertThat(state.exists()).isFalse();
    assertThat(dir.resolve("prometheus.log")).hasContent("kept");
  }
}
