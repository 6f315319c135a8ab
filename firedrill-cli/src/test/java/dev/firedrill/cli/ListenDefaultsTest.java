package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every option of every command that says where a server listens ({@code HOST:PORT}: the embedded
 * Prometheus and Alertmanager, the proxy's data port, admin API and metrics, the lab's services,
 * the load's metrics) is either required or defaults to 127.0.0.1: nothing firedrill opens listens
 * beyond this host unless told to.
 */
class ListenDefaultsTest {

  @Test
  void everyListenOptionIsRequiredOrLoopbackByDefault() {
    List<String> seen = new ArrayList<>();
    walk(Main.commandLine(), seen);
    assertThat(seen)
        .as("the listen options found")
        .contains(
            "firedrill prometheus --listen=127.0.0.1:9090",
            "firedrill alertmanager --listen=127.0.0.1:9093",
            "firedrill proxy --admin (required)");
  }

  private static void walk(CommandLine command, List<String> seen) {
    for (OptionSpec option : command.getCommandSpec().options()) {
      if (!option.paramLabel().contains("HOST:PORT")) {
        continue;
      }
      String name = command.getCommandSpec().qualifiedName() + " " + option.longestName();
      String value = option.defaultValue();
      if (option.required()) {
        seen.add(name + " (required)");
      } else if (value != null) {
        seen.add(name + "=" + value);
        assertThat(value).as(name).startsWith("127.0.0.1:");
      } else {
        seen.add(name + " (none: off unless given)");
      }
    }
    command.getSubcommands().values().forEach(sub -> walk(sub, seen));
  }
}
