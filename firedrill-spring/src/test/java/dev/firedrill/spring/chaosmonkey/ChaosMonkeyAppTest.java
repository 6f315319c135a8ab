package dev.firedrill.spring.chaosmonkey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.engine.Cleanup;
import dev.firedrill.engine.FaultProvider;
import dev.firedrill.engine.Journal;
import dev.firedrill.engine.JournalFile;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.TokenSource;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.FaultKinds;
import dev.firedrill.fault.ProcessId;
import dev.firedrill.fault.ProcessTable;
import dev.firedrill.fault.TtlEnforcer;
import dev.firedrill.fault.Verification;
import dev.firedrill.fault.WorkerLauncher;
import dev.firedrill.spring.testing.SpringApp;
import dev.firedrill.testing.Procs;
import dev.firedrill.time.Clock;
import dev.firedrill.watchdog.DeadMansSwitch;
import dev.firedrill.watchdog.WatchdogFiles;
import dev.firedrill.watchdog.WatchdogRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * spring-chaos-monkey against a real Spring Boot 3.5 application with chaos-monkey-spring-boot,
 * started as a child process: the assaults act on real requests, and the revert (also from the
 * journal's state, as cleanup and the watchdog do it) leaves Chaos Monkey disabled.
 */
class ChaosMonkeyAppTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int REQUESTS = 20;
  private static final String TOKEN = "cm-token-5f0c1e9a7d";

  @TempDir static Path dir;
  private static SpringApp app;

  @BeforeAll
  static void start() throws Exception {
    app = SpringApp.start(dir);
  }

  @AfterAll
  static void stop() throws Exception {
    if (app != null) {
      app.close();
    }
  }

  /** Whatever a test left, the next one starts from a disabled Chaos Monkey. */
  @AfterEach
  void disable() throws Exception {
    app.post("/actuator/chaosmonkey/disable");
  }

  private static FaultContext context(double share) {
    return Monkeys.context(share, Map.of("CM_TOKEN", TOKEN));
  }

  private static ChaosMonkeySpec spec(Assaults assaults) {
    return Monkeys.spec(app.actuator(), new TokenSource.FromEnv("CM_TOKEN"), assaults);
  }

  /** Milliseconds of each of {@code n} GET /greeting calls that answered 200. */
  private static long[] timedGreetings(int n) throws Exception {
    long[] millis = new long[n];
    for (int i = 0; i < n; i++) {
      long start = System.nanoTime();
      var response = app.get("/greeting");
      millis[i] = (System.nanoTime() - start) / 1_000_000;
      assertThat(response.statusCode()).as("call %d: %s", i, response.body()).isEqualTo(200);
    }
    return millis;
  }

  /** How many of {@code n} GET /greeting calls failed with a 5xx. */
  private static int failedGreetings(int n) throws Exception {
    int failed = 0;
    for (int i = 0; i < n; i++) {
      if (app.get("/greeting").statusCode() >= 500) {
        failed++;
      }
    }
    return failed;
  }

  private static JsonNode json(String path) throws Exception {
    var response = app.get(path);
    assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  @Test
  void latencyAssaultDelaysEveryWatchedCallAndTheRevertEndsIt() throws Exception {
    timedGreetings(5); // warm the JIT and the connection
    long[] baseline = timedGreetings(REQUESTS);
    Fault fault = Monkeys.fault(spec(Monkeys.latency(1, 300, 400)), context(1.0));

    fault.inject();
    assertThat(json("/actuator/chaosmonkey/status").path("enabled").asBoolean()).isTrue();
    long[] attacked = timedGreetings(REQUESTS);
    fault.revert();
    Verification verification = fault.verify();
    long[] after = timedGreetings(REQUESTS);

    double baseMean = Arrays.stream(baseline).average().orElseThrow();
    double attackedMean = Arrays.stream(attacked).average().orElseThrow();
    double afterMean = Arrays.stream(after).average().orElseThrow();
    System.out.printf(
        "spring-chaos-monkey latency 300ms..400ms, level 1, %d calls each: baseline mean %.1f ms,"
            + " attacked mean %.1f ms (ratio %.1f, min %d ms), after revert mean %.1f ms%n",
        REQUESTS,
        baseMean,
        attackedMean,
        attackedMean / Math.max(baseMean, 0.1),
        Arrays.stream(attacked).min().orElseThrow(),
        afterMean);
    // Chaos Monkey sleeps at least latencyRangeStart in every attacked call.
    assertThat(Arrays.stream(attacked).min().orElseThrow()).isGreaterThanOrEqualTo(300);
    assertThat(verification.reverted()).as(verification.detail()).isTrue();
    assertThat(verification.detail())
        .isEqualTo(
            "disabled Chaos Monkey at "
                + app.actuator()
                + " and switched its assaults off; verified: /status says disabled and"
                + " /assaults has latency and exception assaults off");
  }

  @Test
  void exceptionAssaultFailsOneCallInLevelAndTheRevertIsVerifiedAgainstTheApp() throws Exception {
    Fault fault =
        Monkeys.fault(
            spec(Monkeys.exceptions(4, "java.lang.IllegalStateException")), context(0.25));

    fault.inject();
    int failed = failedGreetings(REQUESTS);
    fault.revert();
    int failedAfter = failedGreetings(REQUESTS);

    System.out.printf(
        "spring-chaos-monkey exceptions, level 4 deterministic: %d of %d calls failed; after"
            + " revert %d of %d%n",
        failed, REQUESTS, failedAfter, REQUESTS);
    assertThat(failed).isEqualTo(REQUESTS / 4);
    assertThat(failedAfter).isZero();
    assertThat(json("/actuator/chaosmonkey/status").path("enabled").asBoolean()).isFalse();
    JsonNode assaults = json("/actuator/chaosmonkey/assaults");
    assertThat(assaults.path("exceptionsActive").asBoolean()).isFalse();
    assertThat(assaults.path("latencyActive").asBoolean()).isFalse();
    assertThat(fault.verify().reverted()).isTrue();
  }

  @Test
  void theWatchdogsRestoreFromTheJournalRevertsWhatAnotherProcessInjected() throws Exception {
    ChaosMonkeySpec spec = spec(Monkeys.exceptions(1, "java.lang.IllegalStateException"));
    Fault injected = Monkeys.fault(spec, context(1.0));
    // Before anything (as cleanup first checks), the line does not claim a revert it did not do.
    assertThat(injected.verify())
        .isEqualTo(
            Verification.reverted(
                "Chaos Monkey at "
                    + app.actuator()
                    + " is disabled, its assaults off; verified: /status says disabled and"
                    + " /assaults has latency and exception assaults off"));
    assertThat(injected.ttlEnforcer()).isEqualTo(TtlEnforcer.WATCHDOG);
    injected.inject();
    assertThat(failedGreetings(3)).isEqualTo(3);
    assertThat(injected.verify().reverted()).isFalse();

    // What the journal keeps, through JSON, read back by the installed kinds as cleanup does.
    String entry = JSON.writeValueAsString(FaultKinds.installed().writeJournal(spec));
    String state = JSON.writeValueAsString(injected.state());
    FaultSpec read = FaultKinds.installed().readJournal(JSON.readTree(entry));
    @SuppressWarnings("unchecked")
    Map<String, Object> stateBack = JSON.readValue(state, Map.class);
    Fault restored = FaultKinds.installed().restore(read, context(1.0), stateBack);
    restored.revert();
    Verification verification = restored.verify();

    assertThat(read).isEqualTo(spec);
    assertThat(verification.reverted()).as(verification.detail()).isTrue();
    assertThat(failedGreetings(3)).isZero();
    assertThat(entry + state).doesNotContain(TOKEN);
  }

  /**
   * A SIGKILL between enabling Chaos Monkey and the journal learning the state: cleanup rebuilds
   * the fault from the state journaled before the injection (the kill matrix found there was none,
   * so cleanup asked for a human, exit 7).
   */
  @Test
  void theStateJournaledBeforeTheInjectionLetsCleanupSwitchTheAssaultOff() throws Exception {
    ChaosMonkeySpec spec = spec(Monkeys.exceptions(1, "java.lang.IllegalStateException"));
    Fault injected = Monkeys.fault(spec, context(1.0));
    Map<String, Object> before = injected.stateBeforeInjection().orElseThrow();
    assertThat(before).isEqualTo(injected.state());
    injected.inject();
    assertThat(failedGreetings(3)).isEqualTo(3);

    @SuppressWarnings("unchecked")
    Map<String, Object> stateBack = JSON.readValue(JSON.writeValueAsString(before), Map.class);
    Fault restored = FaultKinds.installed().restore(spec, context(1.0), stateBack);
    restored.revert();
    Verification verification = restored.verify();

    assertThat(verification.reverted()).as(verification.detail()).isTrue();
    assertThat(failedGreetings(3)).isZero();
  }

  /** The journal a SIGKILLed firedrill leaves: the fault injected, its state, no revert. */
  private static JournalFile killedRunJournal(ChaosMonkeySpec spec, Map<String, Object> state) {
    ObjectNode root = JSON.createObjectNode();
    root.put("firedrill_journal", Journal.FORMAT);
    ObjectNode fault = root.putArray("faults").addObject();
    fault.put("index", 0);
    fault.put("kind", spec.kind());
    fault.set("spec", FaultKinds.installed().writeJournal(spec));
    fault.put("injected", true);
    fault.put("reverted", false);
    fault.set("state", JSON.valueToTree(state));
    JournalFile file = new JournalFile(dir.resolve("killed.journal.json"));
    file.write(Journal.of(root));
    return file;
  }

  @Test
  void cleanupAfterAKilledRunSwitchesTheAssaultOffAndSaysHowItKnows() throws Exception {
    ChaosMonkeySpec spec = spec(Monkeys.exceptions(1, "java.lang.IllegalStateException"));
    Fault fault = Monkeys.fault(spec, context(1.0));
    fault.inject();
    JournalFile journal = killedRunJournal(spec, fault.state());
    // firedrill is SIGKILLed here: its revert never runs, and the assault goes on.
    assertThat(failedGreetings(3)).isEqualTo(3);
    FaultProvider provider =
        new FaultProvider() {
          @Override
          public Fault create(FaultSpec created) {
            return FaultKinds.installed().create(created, context(1.0), 0);
          }

          @Override
          public Fault restore(FaultSpec restored, Map<String, Object> state)
              throws FaultException {
            return FaultKinds.installed().restore(restored, context(1.0), state);
          }
        };
    List<String> lines = new ArrayList<>();

    Cleanup.Result result =
        new Cleanup(provider, Clock.system())
            .run(journal.read(), journal, outcome -> lines.add(outcome.line()));

    assertThat(result.needsHuman()).isFalse();
    assertThat(lines)
        .containsExactly(
            "fault 0 (spring-chaos-monkey): reverted: disabled Chaos Monkey at "
                + app.actuator()
                + " and switched its assaults off; verified: /status says disabled and"
                + " /assaults has latency and exception assaults off");
    assertThat(failedGreetings(3)).isZero();
    assertThat(Files.readString(dir.resolve("killed.journal.json"))).doesNotContain(TOKEN);
  }

  @Test
  void aChaosMonkeyAlreadyEnabledBySomeoneElseIsRefusedAndLeftAsItWas() throws Exception {
    app.post("/actuator/chaosmonkey/enable");
    Fault fault = Monkeys.fault(spec(Monkeys.latency(1, 300, 300)), context(1.0));

    assertThatThrownBy(fault::inject)
        .isInstanceOf(FaultException.class)
        .hasMessageContaining("Chaos Monkey is already enabled at " + app.actuator());
    fault.revert();
    Verification verification = fault.verify();

    assertThat(json("/actuator/chaosmonkey/status").path("enabled").asBoolean()).isTrue();
    // The rollback must not fail over what it never touched, nor tell a human to disable it.
    assertThat(verification)
        .isEqualTo(
            Verification.reverted(
                "changed nothing at "
                    + app.actuator()
                    + ": Chaos Monkey was already enabled there, and is left as it was"));
  }

  @Test
  void anExceptionTheApplicationCannotLoadIsRefusedByChaosMonkeyWithItsReason() throws Exception {
    Fault fault =
        Monkeys.fault(spec(Monkeys.exceptions(1, "com.example.NoSuchException")), context(1.0));

    assertThatThrownBy(fault::inject)
        .isInstanceOf(FaultException.class)
        .hasMessageStartingWith(
            "spring-chaos-monkey: POST " + app.actuator() + "/chaosmonkey/assaults answered 400")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(TOKEN));
    fault.revert();
    assertThat(fault.verify().reverted()).isTrue();
  }

  /**
   * The watchdog is a JVM of its own that sees only the lease file: a firedrill that stops renewing
   * it, alive or SIGKILLed, looks the same to it. Here the test stops renewing and never reverts,
   * and Chaos Monkey must be off again by the watchdog's hand after the grace.
   */
  @Test
  void theWatchdogSwitchesTheAssaultOffWhenFiredrillStopsRenewingItsLease() throws Exception {
    Path journal = dir.resolve("watchdog.journal.json");
    DeadMansSwitch watchdog =
        new DeadMansSwitch(
            WatchdogFiles.beside(journal),
            "exp-1",
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            WorkerLauncher.current(),
            ProcessTable.system(),
            Clock.system());
    Fault fault =
        Monkeys.fault(
            Monkeys.spec(app.actuator(), TokenSource.none(), Monkeys.latency(1, 10, 20)),
            context(1.0));
    assertThat(fault.ttlEnforcer()).isEqualTo(TtlEnforcer.WATCHDOG);
    ProcessId process = watchdog.hold(0, fault).orElseThrow();
    fault.inject();
    watchdog.update(0, fault);
    assertThat(json("/actuator/chaosmonkey/status").path("enabled").asBoolean()).isTrue();
    long lastRenewal = System.nanoTime();

    assertThat(
            Procs.waitFor(
                Duration.ofSeconds(20),
                () -> {
                  try {
                    return !json("/actuator/chaosmonkey/status").path("enabled").asBoolean();
                  } catch (Exception e) {
                    return false;
                  }
                }))
        .as("the watchdog disabled Chaos Monkey after the lease's grace")
        .isTrue();
    System.out.printf(
        "ChaosMonkeyAppTest: Chaos Monkey disabled %.1f s after the last renewal (grace 2s)%n",
        (System.nanoTime() - lastRenewal) / 1e9);
    assertThat(
            Procs.waitFor(
                Duration.ofSeconds(5),
                () -> {
                  try {
                    return WatchdogRecord.read(watchdog.files().record()).last(0).isPresent();
                  } catch (IOException e) {
                    return false;
                  }
                }))
        .as("the watchdog recorded what it did")
        .isTrue();
    WatchdogRecord.Entry entry =
        WatchdogRecord.read(watchdog.files().record()).last(0).orElseThrow();
    // the revert disables first and then switches the assault flags off; the record follows both
    assertThat(json("/actuator/chaosmonkey/assaults").path("latencyActive").asBoolean()).isFalse();
    assertThat(entry.ok()).isTrue();
    assertThat(entry.kind()).isEqualTo("spring-chaos-monkey");
    assertThat(entry.detail()).startsWith("disabled Chaos Monkey at " + app.actuator());
    assertThat(Procs.waitFor(Duration.ofSeconds(10), () -> !ProcessTable.system().alive(process)))
        .as("the watchdog exits once nothing is left to hold")
        .isTrue();
  }

  @Test
  void theTokenIsInNoPlanStateCommandOrError() throws Exception {
    Fault fault = Monkeys.fault(spec(Monkeys.latency(1, 300, 300)), context(1.0));
    List<String> plan = fault.plan();
    fault.inject();
    String all =
        String.join("\n", plan)
            + fault.state()
            + fault.manualRevertCommand()
            + fault.verify().detail()
            + fault.spec()
            + context(1.0);
    fault.revert();

    assertThat(all).doesNotContain(TOKEN);
    assertThat(fault.manualRevertCommand()).contains("Authorization: Bearer $CM_TOKEN");
  }
}
