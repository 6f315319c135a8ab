package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.fault.ProcessTable;
import dev.firedrill.lab.stack.LabStack;
import dev.firedrill.lab.stack.LabState;
import dev.firedrill.testing.StubHttpServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lab status} over a lab state file: this test's own JVM stands for a lab process, a stub
 * server for its address.
 */
class LabStatusCommandTest {

  @TempDir Path dir;

  @Test
  void everyPartRunningAndAnsweringIsExitZeroWithOneRowEach() throws Exception {
    try (StubHttpServer server = StubHttpServer.start().respond(200, "text/plain", "ok")) {
      long self = ProcessHandle.current().pid();
      LabState.in(dir)
          .write(
              List.of(
                  new LabStack.Component(
                      "payments", self, server.url("/").toString(), dir.resolve("p.log"))),
              ProcessTable.system());

      CliRun run = CliRun.of("lab", "status", "--state-dir", dir.toString());
      CliRun json = CliRun.of("lab", "status", "--state-dir", dir.toString(), "--output", "json");

      assertThat(run.exit()).as(run.describe()).isZero();
      assertThat(run.out()).contains("payments").contains("running").contains("HTTP 200");
      assertThat(run.out()).contains("lab is ok: every part runs and answers");
      JsonNode doc = new ObjectMapper().readTree(json.out());
      assertThat(doc.get("up").asBoolean()).isTrue();
      assertThat(doc.get("processes").get(0).get("pid").asLong()).isEqualTo(self);
    }
  }

  @Test
  void aPartThatStoppedAnsweringIsExitOne() throws Exception {
    String url;
    try (StubHttpServer server = StubHttpServer.start().respond(200, "text/plain", "ok")) {
      url = server.url("/").toString();
    }
    LabState.in(dir)
        .write(
            List.of(
                new LabStack.Component(
                    "checkout", ProcessHandle.current().pid(), url, dir.resolve("c.log"))),
            ProcessTable.system());

    CliRun run = CliRun.of("lab", "status", "--state-dir", dir.toString());

    assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.DEVIATED);
    assertThat(run.out()).contains("refused").contains("not wholly up");
  }

  @Test
  void noLabIsExitOneSayingHowToStartOne() {
    CliRun run = CliRun.of("lab", "status", "--state-dir", dir.resolve("none").toString());

    assertThat(run.exit()).isEqualTo(ExitCode.DEVIATED);
    assertThat(run.out()).contains("no lab is up").contains("firedrill lab up");
  }
}
