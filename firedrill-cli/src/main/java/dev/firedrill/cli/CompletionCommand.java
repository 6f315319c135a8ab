package dev.firedrill.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "completion",
    description =
        "Print a shell completion script for firedrill's commands and options. Load it with"
            + " 'source <(firedrill completion bash)' (bash) or 'source <(firedrill completion zsh)'"
            + " (zsh), or save it where your shell reads completions.")
final class CompletionCommand implements Callable<Integer> {

  @Parameters(paramLabel = "SHELL", description = "bash or zsh.")
  String shell;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    // picocli's script is written for bash; zsh runs it through its bash completion emulation.
    String bash = AutoComplete.bash("firedrill", spec.root().commandLine());
    String script =
        switch (shell) {
          case "bash" -> bash;
          case "zsh" ->
              "autoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n"
                  + bash;
          default ->
              throw new UserError(
                  "firedrill completion: SHELL "
                      + shell
                      + " is not supported (expected bash or zsh)",
                  ExitCode.INVALID);
        };
    spec.commandLine().getOut().print(script);
    spec.commandLine().getOut().flush();
    return ExitCode.HELD;
  }
}
