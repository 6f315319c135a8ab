package dev.firedrill.alerting.routes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.testing.Stacks;
import dev.firedrill.yaml.Problem;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One route {@code matchers} entry read by firedrill and by the real amtool 0.33 (utf8-strict-mode
 * and the default fallback): the same refusal message, or the same matchers as {@code amtool config
 * routes show} prints them. Regular expressions that do not compile are left out: their messages
 * are Go's own.
 */
class MatcherGrammarAmtoolTest {

  private static final List<String> INPUTS =
      List.of(
          "",
          "{}",
          "{ }",
          "a=b",
          "{a=b,}",
          "foo=bar baz",
          "{a=b",
          "a=b}",
          "a!b",
          "a!",
          "a=",
          "a",
          "a b",
          "~",
          "{~",
          "=a",
          "a=\"\\q\"",
          "a=\"\\'\"",
          "a=\"\\xff\"",
          "a=\"open",
          "a=b,,",
          "a=b\\",
          "{a=b}c",
          "{}}",
          "é=ü ö",
          "\"service.name\"=\"x\"",
          "service.name=x",
          "{service.name=x, \"team name\"!=\"a, b\",}",
          "  été =~ crit.* ",
          "a=\"tab\\there\"",
          "a=\"\\u00e9\\x41\\101\\\\\\\"\"",
          "a=\"\\xc3\\xa9\"",
          "a=\"\\U0001F600\"",
          "a=\"\\t\"",
          "re=~a\\d+",
          "x=\"a\\\\b\"",
          "\"\"=x",
          "a='b'",
          "a=`b`",
          "a=\"b\"c",
          "a=~\"x|y\",b!~\"z\"",
          "a=b, c=d e");
  private static final Pattern FAILED = Pattern.compile("FAILED: (.*)");

  @Test
  void refusesAndReadsAsAmtool033(@TempDir Path dir) throws Exception {
    Path amtool = Stacks.unpacked("prometheus-alertmanager", "0.3", "amtool");
    List<String> disagreements = new ArrayList<>();
    for (int i = 0; i < INPUTS.size(); i++) {
      String input = INPUTS.get(i);
      Path file =
          Files.writeString(
              dir.resolve("am" + i + ".yml"),
              "route:\n  receiver: d\n  routes:\n"
                  + "    - receiver: d\n      matchers: ['"
                  + input.replace("'", "''")
                  + "']\nreceivers: [{name: d}]\n");
      for (MatcherSyntax syntax : List.of(MatcherSyntax.UTF8, MatcherSyntax.FALLBACK)) {
        List<String> flags =
            syntax == MatcherSyntax.UTF8 ? List.of("--enable-feature=utf8-strict-mode") : List.of();
        String theirs = amtool(amtool, flags, file);
        String ours = ours(file, syntax);
        if (!ours.equals(theirs)) {
          disagreements.add(
              syntax.word() + " " + input + "\n  amtool:    " + theirs + "\n  firedrill: " + ours);
        }
      }
    }
    assertThat(disagreements).as(() -> String.join("\n", disagreements)).isEmpty();
  }

  /** The refusal, without firedrill's place and expectation, or the route tree. */
  private static String ours(Path file, MatcherSyntax syntax) {
    try {
      return RouteTree.load(file, RouteDialect.CURRENT.withMatchers(syntax)).render();
    } catch (RouteConfigException e) {
      Problem problem = e.problems().get(0);
      return "FAILED " + problem.message().replaceFirst(" \\(expected matchers such as .*\\)$", "");
    }
  }

  private static String amtool(Path amtool, List<String> flags, Path file) throws Exception {
    List<String> check = new ArrayList<>(List.of(amtool.toString()));
    check.addAll(flags);
    check.addAll(List.of("check-config", file.toString()));
    String checked = run(check, true);
    java.util.regex.Matcher failed = FAILED.matcher(checked);
    if (failed.find()) {
      return "FAILED " + failed.group(1);
    }
    List<String> show = new ArrayList<>(List.of(amtool.toString()));
    show.addAll(flags);
    show.addAll(List.of("config", "routes", "show", "--config.file=" + file));
    String tree =
        run(show, false)
            .lines()
            .filter(line -> !line.startsWith("time=") && !line.equals("Routing tree:"))
            .reduce("", (a, b) -> a + b + "\n");
    return tree.strip() + "\n";
  }

  private static String run(List<String> command, boolean withErrors) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command);
    Process process =
        (withErrors
                ? builder.redirectErrorStream(true)
                : builder.redirectError(ProcessBuilder.Redirect.DISCARD))
            .start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("amtool did not finish: " + command);
    }
    return out;
  }
}
