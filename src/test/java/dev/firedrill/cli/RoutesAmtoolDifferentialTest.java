package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.alerting.routes.MatchType;
import dev.firedrill.alerting.routes.Matcher;
import dev.firedrill.alerting.routes.Route;
import dev.firedrill.alerting.routes.RouteTree;
import dev.firedrill.testing.RequiredBinary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code firedrill routes} against the real {@code amtool config routes test --tree}: the same receivers
 * line and the same matching tree, for fixed label sets and for seeded random ones drawn from each
 * config's own matchers plus noise. amtool takes one label set per call, so about 150 calls in all,
 * four at a time.
 */
class RoutesAmtoolDifferentialTest {

  private static final List<String> NOISE_VALUES = List.of("", "prod", "production", "staging", "dev", "critical",
      "page", "info", "eu-west-1", "us-east-1", "CheckoutLatency", "checkout_api_latency", "CheckoutÉ", "Checkout1",
      "c1", "c42", "cx", "api", "a \"quoted\", value", "a,b", "x\\y", "line\nbreak", " padded ", "ÉTÉ", "noise");
  private static final List<String> NOISE_NAMES = List.of("instance", "job", "noise");

  @Test
  void agreesWithAmtoolOnTheLabFixture() throws Exception {
    List<Map<String, String>> sets = new ArrayList<>(List.of(
        Map.of(), Map.of("team", "payments"), Map.of("team", "checkout", "service", "checkout"),
        Map.of("team", "Payments"), Map.of("team", ""), Map.of("alertname", "X", "team", "payments ")));
    sets.addAll(generated(Path.of(RoutesCommandTest.LAB), 24, 7));
    compare(Path.of(RoutesCommandTest.LAB), sets);
  }

  @Test
  void agreesWithAmtoolOnARichTree() throws Exception {
    List<Map<String, String>> sets = new ArrayList<>(List.of(
        Map.of(),
        Map.of("severity", "critical"),
        Map.of("severity", "critical", "team", "payments"),
        Map.of("severity", "page", "team", "payments", "env", "prod"),
        Map.of("severity", "page", "team", "payments", "env", "staging"),
        Map.of("severity", "page", "team", "payments"),
        Map.of("team", "payments", "service", "ledger"),
        Map.of("team", "payments", "service", "ledger", "env", "prod"),
        Map.of("team", "payments", "service", "ledger", "env", "production"),
        Map.of("team", "payments", "service", "refunds", "env", "dev"),
        Map.of("team", "payments", "service", "api", "env", "prod"),
        Map.of("team", "payments", "service", "api", "env", "preprod"),
        Map.of("team", "payments", "service", "ledgerx"),
        Map.of("team", "checkout", "alertname", "CheckoutAPILatency"),
        Map.of("team", "checkout", "alertname", "checkoutlatency", "region", "us-east-1"),
        Map.of("team", "checkout", "alertname", "CheckoutLatency", "region", "eu-west-1"),
        Map.of("team", "checkout", "alertname", "Checkout1"),
        Map.of("team", "checkout", "alertname", "CheckoutÉ"),
        Map.of("team", "checkout", "message", "a \"quoted\", value"),
        Map.of("team", "infra"),
        Map.of("team", "infra", "cluster", "c7"),
        Map.of("team", "platform", "cluster", "c12", "env", "prod", "severity", "warning"),
        Map.of("team", "platform", "cluster", "c12", "env", "prod", "severity", "info"),
        Map.of("team", "infra", "cluster", "cx", "severity", "warning"),
        Map.of("team", "other"),
        Map.of("team", "other", "severity", "page"),
        Map.of("team", " "),
        Map.of("env", "prod", "service", "api")));
    sets.addAll(generated(Path.of(RoutesCommandTest.RICH), 96, 42));
    compare(Path.of(RoutesCommandTest.RICH), sets);
  }

  /** Seeded label sets: names from the config's matchers and a few others, values from the matchers and noise. */
  private static List<Map<String, String>> generated(Path config, int count, long seed) throws Exception {
    RouteTree tree = RouteTree.load(config);
    Set<String> names = new LinkedHashSet<>();
    Set<String> values = new LinkedHashSet<>(NOISE_VALUES);
    collect(tree.root(), names, values);
    names.addAll(NOISE_NAMES);
    List<String> nameList = List.copyOf(names);
    List<String> valueList = List.copyOf(values);
    Random random = new Random(seed);
    List<Map<String, String>> sets = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Map<String, String> labels = new LinkedHashMap<>();
      int size = random.nextInt(6);
      for (int j = 0; j < size; j++) {
        labels.put(nameList.get(random.nextInt(nameList.size())), valueList.get(random.nextInt(valueList.size())));
      }
      sets.add(labels);
    }
    return sets;
  }

  private static void collect(Route route, Set<String> names, Set<String> values) {
    for (Matcher matcher : route.matchers()) {
      names.add(matcher.name());
      if (matcher.type() == MatchType.EQUAL || matcher.type() == MatchType.NOT_EQUAL) {
        values.add(matcher.value());
      } else {
        // Words of the regex: "prod|staging" gives prod and staging, "c[0-9]+" gives c.
        String stripped = matcher.value().replaceAll("^\\^\\(\\?:|\\)\\$$", "").replaceAll("\\(\\?i\\)", "");
        for (String part : stripped.split("\\|")) {
          values.add(part.replaceAll("[\\\\^$.*+?()\\[\\]{}]|\\[\\[:alpha:\\]\\]", ""));
        }
      }
    }
    route.routes().forEach(child -> collect(child, names, values));
  }

  private static void compare(Path config, List<Map<String, String>> sets) throws Exception {
    Path amtool = RequiredBinary.find("amtool", "FIREDRILL_AMTOOL", "prometheus-alertmanager");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<String> disagreements = new ArrayList<>();
    try {
      List<Future<String>> answers = new ArrayList<>();
      for (Map<String, String> labels : sets) {
        answers.add(pool.submit(() -> amtool(amtool, config, arguments(labels))));
      }
      for (int i = 0; i < sets.size(); i++) {
        List<String> args = new ArrayList<>(List.of(config.toString(), "--tree"));
        args.addAll(arguments(sets.get(i)));
        CliRun ours = RoutesCommandTest.routes(args.toArray(String[]::new));
        String theirs = answers.get(i).get(60, TimeUnit.SECONDS);
        if (ours.exit() != 0 || !ours.out().equals(theirs)) {
          disagreements.add("labels " + arguments(sets.get(i)) + "\n--- amtool config routes test --tree\n" + theirs
              + "--- firedrill routes --tree\n" + ours.out() + ours.err());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(disagreements).as(() -> "firedrill routes and amtool disagree on " + config + " in "
        + disagreements.size() + " of " + sets.size() + " label sets\n--- config\n" + read(config) + "\n"
        + String.join("\n", disagreements)).isEmpty();
  }

  /** Each label as a quoted matcher argument, so both sides read the same value whatever it holds. */
  private static List<String> arguments(Map<String, String> labels) {
    return labels.entrySet().stream().map(e -> e.getKey() + "=\"" + e.getValue().replace("\\", "\\\\")
        .replace("\n", "\\n").replace("\"", "\\\"") + "\"").toList();
  }

  private static String amtool(Path amtool, Path config, List<String> labels) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(amtool.toString(), "config", "routes", "test",
        "--config.file=" + config, "--tree"));
    command.addAll(labels);
    Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("amtool did not finish: " + command);
    }
    if (process.exitValue() != 0) {
      throw new AssertionError("amtool exited " + process.exitValue() + ": " + command + "\n" + out);
    }
    return out;
  }

  private static String read(Path config) {
    try {
      return Files.readString(config);
    } catch (IOException e) {
      return "(cannot read: " + e.getMessage() + ")";
    }
  }
}
