package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The completion scripts load in a real bash and complete firedrill's commands. */
class CompletionCommandTest {

  @TempDir Path dir;

  @Test
  void theBashScriptSourcesInBashAndRegistersFiredrill() throws Exception {
    Path script = script("bash");

    Result result = bash("source " + script + " && complete -p firedrill");

    assertThat(result.exit()).as(result.output()).isZero();
    assertThat(result.output()).contains("firedrill");
  }

  @Test
  void theBashScriptCompletesTheCommandsBelowFiredrillAndRules() throws Exception {
    Path script = script("bash");

    // Drive the completion function as bash does on TAB: the words typed, the word being completed.
    Result top =
        bash(
            "source "
                + script
                + " && COMP_WORDS=(firedrill '') && COMP_CWORD=1 && COMP_LINE='firedrill ' &&"
                + " COMP_POINT=10 && _complete_firedrill && printf '%s\\n' \"${COMPREPLY[@]}\"");
    Result rules =
        bash(
            "source "
                + script
                + " && COMP_WORDS=(firedrill rules '') && COMP_CWORD=2 && COMP_LINE='firedrill rules ' &&"
                + " COMP_POINT=16 && _complete_firedrill && printf '%s\\n' \"${COMPREPLY[@]}\"");

    assertThat(top.exit()).as(top.output()).isZero();
    assertThat(top.output().lines().toList()).contains("validate", "plan", "run", "completion");
    assertThat(rules.output().lines().toList()).as(rules.output()).contains("lint");
  }

  @Test
  void theZshScriptLoadsBashCompletionEmulationFirst() {
    CliRun run = CliRun.of("completion", "zsh");

    assertThat(run.exit()).as(run.describe()).isZero();
    assertThat(run.out()).startsWith("autoload -U +X compinit").contains("bashcompinit");
    assertThat(run.out()).contains("complete -F _complete_firedrill");
  }

  @Test
  void anotherShellIsRefusedNamingTheChoices() {
    CliRun run = CliRun.of("completion", "fish");

    assertThat(run.exit()).isEqualTo(ExitCode.INVALID);
    assertThat(run.err()).contains("fish").contains("expected bash or zsh");
  }

  private Path script(String shell) throws IOException {
    CliRun run = CliRun.of("completion", shell);
    assertThat(run.exit()).as(run.describe()).isZero();
    return Files.writeString(dir.resolve("firedrill." + shell), run.out());
  }

  private record Result(int exit, String output) {}

  private static Result bash(String command) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(List.of("bash", "-c", command)).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Result(process.waitFor(), output);
  }
}
