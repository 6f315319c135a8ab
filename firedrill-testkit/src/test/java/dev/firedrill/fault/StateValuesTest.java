package dev.firedrill.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A fault's state as a journal hands it back to cleanup and the watchdog: numbers as Integer or
 * Long, and a hand-edited or cut journal refused with where and what was found.
 */
class StateValuesTest {

  @Test
  void aProcessIdComesBackFromIntegersAsFromLongs() throws Exception {
    assertThat(ProcessId.fromState(Map.of("pid", 42, "start", 7L), "targets[0]"))
        .isEqualTo(new ProcessId(42, 7));
    assertThat(new ProcessId(42, 7).toState())
        .containsExactly(Map.entry("pid", 42L), Map.entry("start", 7L));
  }

  @Test
  void aWrongOrMissingValueIsNamedWithWhereItWas() {
    assertThatThrownBy(() -> ProcessId.fromState(Map.of("pid", "42", "start", 7), "targets[0]"))
        .isInstanceOf(FaultException.class)
        .hasMessage("state targets[0].pid: expected a number, got \"42\"");
    assertThatThrownBy(() -> ProcessId.fromState(Map.of("pid", 42), "targets[1]"))
        .hasMessage("state targets[1].start: expected a number, got nothing");
    assertThatThrownBy(() -> ProcessId.fromState(List.of(42), "watchdog"))
        .hasMessage("state watchdog: expected an object, got \"[42]\"");
    assertThatThrownBy(() -> StateValues.text(3, "run_id"))
        .hasMessage("state run_id: expected a string, got \"3\"");
    assertThatThrownBy(() -> StateValues.list(null, "targets"))
        .hasMessage("state targets: expected a list, got nothing");
  }

  @Test
  void theRightValuesPassThrough() throws Exception {
    assertThat(StateValues.text("0a1b2c3d", "run_id")).isEqualTo("0a1b2c3d");
    assertThat(StateValues.list(List.of(1, 2), "targets")).isEqualTo(List.of(1, 2));
    assertThat(StateValues.map(Map.of("pid", 1), "watchdog")).containsEntry("pid", 1);
    assertThat(StateValues.number(5_000_000_000L, "start")).isEqualTo(5_000_000_000L);
  }
}
