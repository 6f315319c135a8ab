package dev.firedrill.fault;

import static dev.firedrill.testing.MinimalExperiment.TEXT;
import static dev.firedrill.testing.MinimalExperiment.replace;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.experiment.ExperimentException;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.yaml.Problem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command fault with real small programs: mktemp, rm, test, printenv, sleep. */
class CommandFaultTest {

  private static final Optional<Duration> TTL = Optional.of(Duration.ofMinutes(5));

  @TempDir Path dir;

  private static FaultContext context(Map<String, String> environment) {
    return Contexts.real("command", 1, 1).withEnvironment(environment);
  }

  private FaultSpec.Command mktemp() {
    return new FaultSpec.Command(
        List.of("/usr/bin/mktemp", "-p", dir.toString()),
        List.of("/bin/rm", "-f", "{{ state }}"),
        List.of("/usr/bin/test", "!", "-e", "{{state}}"),
        true,
        Duration.ofSeconds(10),
        TTL);
  }

  @Test
  void injectKeepsTheStateAndRevertAndVerifyGetIt() throws Exception {
    Fault fault = Faults.create(mktemp(), context(System.getenv()));
    assertThat(fault.ttlEnforcer()).isEqualTo(TtlEnforcer.WATCHDOG);
    assertThat(fault.plan())
        .containsExactly(
            "run [\"/usr/bin/mktemp\", \"-p\", \""
                + dir
                + "\"] (timeout 10s; its stdout is the state, for FIREDRILL_FAULT_STATE and {{ state }})",
            "hold in the watchdog: run [\"/bin/rm\", \"-f\", \"{{ state }}\"] at the ttl of 5m, or when"
                + " firedrill stops renewing its lease",
            "verify the revert: [\"/usr/bin/test\", \"!\", \"-e\", \"{{state}}\"] exits 0");

    fault.inject();
    String made = (String) fault.state().get("output");
    assertThat(Path.of(made)).exists().hasParent(dir);
    assertThat(fault.verify().reverted()).as("the file is there: the fault is on").isFalse();
    assertThat(fault.verify().detail())
        .isEqualTo("verify [\"/usr/bin/test\", \"!\", \"-e\", \"" + made + "\"] exited 1");
    assertThat(fault.manualRevertCommand())
        .isEqualTo("FIREDRILL_FAULT_STATE=" + made + " /bin/rm -f " + made);

    fault.revert();
    assertThat(Path.of(made)).doesNotExist();
    Verification verification = fault.verify();
    assertThat(verification.reverted()).isTrue();
    assertThat(verification.detail())
        .isEqualTo(
            "ran [\"/bin/rm\", \"-f\", \""
                + made
                + "\"] (exit 0); verified: [\"/usr/bin/test\", \"!\", \"-e\", \""
                + made
                + "\"] exits 0");
  }

  @Test
  void aFaultRestoredFromTheJournalRevertsWithItsState() throws Exception {
    Fault original = Faults.create(mktemp(), context(System.getenv()));
    original.inject();
    Map<String, Object> journal = Contexts.throughJson(original.state());
    Path made = Path.of((String) journal.get("output"));
    assertThat(made).exists();

    Fault restored = Faults.restore(mktemp(), context(System.getenv()), journal);
    assertThat(restored.verify().reverted()).isFalse();
    restored.revert();
    assertThat(made).doesNotExist();
    assertThat(restored.verify().reverted()).isTrue();
    assertThatThrownBy(restored::inject).isInstanceOf(FaultException.class);
  }

  @Test
  void theStateAndSecretsReachTheCommandsThroughTheEnvironment() throws Exception {
    Path seen = dir.resolve("seen");
    Files.writeString(seen, "");
    Map<String, String> environment =
        Map.of("PATH", System.getenv("PATH"), "FIS_TOKEN", "s3cret-token");
    CommandRunner.Result result =
        new CommandRunner(environment)
            .run(
                List.of("/usr/bin/printenv", "FIS_TOKEN", CommandFault.STATE_VARIABLE),
                Map.of(CommandFault.STATE_VARIABLE, "exp-123"),
                Duration.ofSeconds(10));
    assertThat(result.ok()).isTrue();
    assertThat(result.stdout()).isEqualTo("s3cret-token\nexp-123\n");

    FaultSpec.Command spec =
        new FaultSpec.Command(
            List.of("/usr/bin/printenv", "FIS_TOKEN"),
            List.of("/bin/rm", "-f", seen.toString()),
            List.of("/usr/bin/test", "!", "-e", seen.toString()),
            false,
            Duration.ofSeconds(10),
            TTL);
    Fault fault = Faults.create(spec, context(environment));
    fault.inject();
    assertThat(fault.state()).as("without state: true, stdout is not kept").isEmpty();
    assertThat(String.join("\n", fault.plan()) + fault.manualRevertCommand())
        .doesNotContain("s3cret-token");
    fault.revert();
    assertThat(fault.verify().reverted()).isTrue();
  }

  @Test
  void aFailedRevertIsARollbackFailureQuotingItsStderr() throws Exception {
    FaultSpec.Command spec =
        new FaultSpec.Command(
            List.of("/bin/touch", dir.resolve("on").toString()),
            List.of("/bin/rm", dir.resolve("missing/dir/file").toString()),
            List.of("/usr/bin/test", "!", "-e", dir.resolve("on").toString()),
            false,
            Duration.ofSeconds(10),
            TTL);
    Fault fault = Faults.create(spec, context(System.getenv()));
    fault.inject();
    assertThatThrownBy(fault::revert)
        .isInstanceOf(FaultException.class)
        .hasMessageStartingWith(
            "command: revert [\"/bin/rm\", \"" + dir.resolve("missing/dir/file") + "\"] exited 1: ")
        .hasMessageContaining("No such file or directory");
    assertThat(fault.verify().reverted()).isFalse();
  }

  @Test
  void aCommandThatOutlivesItsTimeoutIsKilledAndFails() throws Exception {
    FaultSpec.Command spec =
        new FaultSpec.Command(
            List.of("/bin/sleep", "30"),
            List.of("/bin/true"),
            List.of("/bin/true"),
            false,
            Duration.ofMillis(300),
            TTL);
    Fault fault = Faults.create(spec, context(System.getenv()));
    assertThatThrownBy(fault::inject)
        .isInstanceOf(FaultException.class)
        .hasMessage("command: inject [\"/bin/sleep\", \"30\"] did not end within 300ms (killed)");
  }

  @Test
  void aCommandLineAsOneStringIsRefusedNamingTheKey() {
    String entry =
        "    - {kind: command, inject: '/bin/touch /tmp/x', revert: [/bin/rm, /tmp/x],"
            + " verify: [/usr/bin/test, '!', -e, /tmp/x], ttl: 15m}\n";
    assertThat(problems(entry))
        .singleElement()
        .asString()
        .startsWith(
            "exp.yaml: /method/faults/0/inject: expected an argument list such as"
                + " [/usr/bin/aws, fis, start-experiment] (never a shell command line), got"
                + " \"/bin/touch /tmp/x\"");
    assertThat(
            problems("    - {kind: command, inject: [/bin/true], verify: [/bin/true], ttl: 15m}\n"))
        .singleElement()
        .asString()
        .startsWith("exp.yaml: /method/faults/0/revert: missing; command needs revert:");
  }

  private static List<String> problems(String entry) {
    try {
      ExperimentLoader.load(
          "exp.yaml",
          replace(TEXT, "    - kind: process-kill\n      match: payments-server\n", entry));
      return List.of();
    } catch (ExperimentException e) {
      return e.problems().stream().map(Problem::toString).toList();
    }
  }
}
