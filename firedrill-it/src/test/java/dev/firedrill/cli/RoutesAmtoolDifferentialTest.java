package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.alerting.routes.MatchType;
import dev.firedrill.alerting.routes.Matcher;
import dev.firedrill.alerting.routes.Route;
import dev.firedrill.alerting.routes.RouteTree;
import dev.firedrill.testing.RequiredBinary;
import dev.firedrill.testing.Stacks;
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
 * {@code firedrill routes} against the real {@code amtool config routes test --tree} of
 * Alertmanager 0.25 (classic matchers) and 0.33 (its default fallback mode, utf8-strict-mode and
 * classic-mode): the same receivers line and the same matching tree, for fixed label sets and for
 * seeded random ones drawn from each config's own matchers plus noise, UTF-8 label names among
 * them. amtool takes one label set per call, so 456 calls in all, four at a time.
 */
class RoutesAmtoolDifferentialTest {

  private static final String UTF8 = "fixtures/testdata/routes/utf8.yml";
  private static final String FALLBACK = "fixtures/testdata/routes/fallback.yml";
  private static final List<String> NOISE_VALUES =
      List.of(
          "",
          "prod",
          "production",
          "staging",
          "dev",
          "critical",
          "page",
          "info",
          "eu-west-1",
          "us-east-1",
          "CheckoutLatency",
          "checkout_api_latency",
          "CheckoutÉ",
          "Checkout1",
          "c1",
          "c42",
          "cx",
          "api",
          "a \"quoted\", value",
          "a,b",
          "x\\y",
          "line\nbreak",
          " padded ",
          "ÉTÉ",
          "noise");
  private static final java.util.regex.Pattern LOG_LINE =
      java.util.regex.Pattern.compile("time=\\S+ level=");
  private static final List<String> NOISE_NAMES = List.of("instance", "job", "noise");
  private static final List<String> UTF8_NOISE_NAMES =
      List.of("service.name", "k8s.pod name", "été", "a{b}", "x=y");

  /**
   * One amtool and the flags that pick its matcher grammar, with firedrill's --matchers for the
   * same.
   */
  private record Side(String name, Path amtool, List<String> amtoolFlags, String matchers) {}

  private static Side stable() {
    return new Side(
        "amtool 0.25",
        RequiredBinary.find("amtool", "FIREDRILL_AMTOOL", "prometheus-alertmanager"),
        List.of(),
        "classic");
  }

  private static Side current(String mode) {
    List<String> flags =
        switch (mode) {
          case "utf8" -> List.of("--enable-feature=utf8-strict-mode");
          case "classic" -> List.of("--enable-feature=classic-mode");
          default -> List.of();
        };
    return new Side(
        "amtool 0.33 (" + mode + ")",
        Stacks.unpacked("prometheus-alertmanager", "0.3", "amtool"),
        flags,
        mode);
  }

  private static List<Map<String, String>> labFixed() {
    return new ArrayList<>(
        List.of(
            Map.of(),
            Map.of("team", "payments"),
            Map.of("team", "checkout", "service", "checkout"),
            Map.of("team", "Payments"),
            Map.of("team", ""),
            Map.of("alertname", "X", "team", "payments ")));
  }

  @Test
  void agreesWithAmtool025OnTheLabFixture() throws Exception {
    List<Map<String, String>> sets = labFixed();
    sets.addAll(generated(Path.of(RoutesCommandTest.LAB), 24, 7, false));
    compare(stable(), Path.of(RoutesCommandTest.LAB), sets);
  }

  @Test
  void agreesWithAmtool025OnARichTree() throws Exception {
    List<Map<String, String>> sets = richFixed();
    sets.addAll(generated(Path.of(RoutesCommandTest.RICH), 96, 42, false));
    compare(stable(), Path.of(RoutesCommandTest.RICH), sets);
  }

  @Test
  void agreesWithAmtool033OnTheLabFixtureAndARichTree() throws Exception {
    List<Map<String, String>> lab = labFixed();
    lab.addAll(generated(Path.of(RoutesCommandTest.LAB), 12, 8, true));
    compare(current("fallback"), Path.of(RoutesCommandTest.LAB), lab);
    List<Map<String, String>> rich = richFixed();
    rich.addAll(generated(Path.of(RoutesCommandTest.RICH), 64, 43, true));
    compare(current("fallback"), Path.of(RoutesCommandTest.RICH), rich);
  }

  @Test
  void agreesWithAmtool033OnUtf8MatchersInFallbackAndStrictMode() throws Exception {
    List<Map<String, String>> sets =
        new ArrayList<>(
            List.of(
                Map.of(),
                Map.of("service.name", "checkout"),
                Map.of("service.name", "checkout", "deployment.environment", "prod"),
                Map.of("service.name", "checkout", "k8s.pod name", "api-1"),
                Map.of("service.name", "checkout", "k8s.pod name", "api-1", "team", "payments"),
                Map.of("service.name", "checkout", "été", "oui", "sévérité", "page"),
                Map.of("service.name", "checkout", "été", "oui", "sévérité", "info"),
                Map.of("a{b}", "c,d"),
                Map.of("team", "payments", "severity", "critical", "quote\"d", "x"),
                Map.of("team", "payments", "severity", "critical", "tab\there", "éA"),
                Map.of("k8s.pod name", "web-2"),
                Map.of("service_name", "checkout")));
    sets.addAll(generated(Path.of(UTF8), 48, 11, true));
    compare(current("fallback"), Path.of(UTF8), sets);
    compare(current("utf8"), Path.of(UTF8), sets);
  }

  @Test
  void agreesWithAmtool033WhereTheFallbackDecides() throws Exception {
    List<Map<String, String>> sets =
        new ArrayList<>(
            List.of(
                Map.of("a", "\t"),
                Map.of("a", "\\t"),
                Map.of("foo", "bar baz"),
                Map.of("re", "a77"),
                Map.of("re", "ad"),
                Map.of("service.name", "x", "team", "pay"),
                Map.of("team", "pay", "env", "staging"),
                Map.of("team", "pay")));
    sets.addAll(generated(Path.of(FALLBACK), 24, 12, true));
    compare(current("fallback"), Path.of(FALLBACK), sets);
  }

  @Test
  void agreesWithAmtool033InClassicMode() throws Exception {
    List<Map<String, String>> sets = richFixed();
    sets.addAll(generated(Path.of(RoutesCommandTest.RICH), 12, 44, false));
    compare(current("classic"), Path.of(RoutesCommandTest.RICH), sets);
  }

  private static List<Map<String, String>> richFixed() {
    return new ArrayList<>(
        List.of(
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
  }

  /**
   * Seeded label sets: names from the config's matchers and a few others, values from the matchers
   * and noise.
   */
  private static List<Map<String, String>> generated(
      Path config, int count, long seed, boolean utf8Names) throws Exception {
    RouteTree tree = RouteTree.load(config);
    Set<String> names = new LinkedHashSet<>();
    Set<String> values = new LinkedHashSet<>(NOISE_VALUES);
    collect(tree.root(), names, values);
    names.addAll(NOISE_NAMES);
    if (utf8Names) {
      names.addAll(UTF8_NOISE_NAMES);
    }
    List<String> nameList = List.copyOf(names);
    List<String> valueList = List.copyOf(values);
    Random random = new Random(seed);
    List<Map<String, String>> sets = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Map<String, String> labels = new LinkedHashMap<>();
      int size = random.nextInt(6);
      for (int j = 0; j < size; j++) {
        labels.put(
            nameList.get(random.nextInt(nameList.size())),
            valueList.get(random.nextInt(valueList.size())));
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
        String stripped =
            matcher.value().replaceAll("^\\^\\(\\?:|\\)\\$$", "").replaceAll("\\(\\?i\\)", "");
        for (String part : stripped.split("\\|")) {
          values.add(part.replaceAll("[\\\\^$.*+?()\\[\\]{}]|\\[\\[:alpha:\\]\\]", ""));
        }
      }
    }
    route.routes().forEach(child -> collect(child, names, values));
  }

  private static void compare(Side side, Path config, List<Map<String, String>> sets)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<String> disagreements = new ArrayList<>();
    try {
      List<Future<String>> answers = new ArrayList<>();
      for (Map<String, String> labels : sets) {
        answers.add(pool.submit(() -> amtool(side, config, arguments(labels))));
      }
      for (int i = 0; i < sets.size(); i++) {
        List<String> args =
            new ArrayList<>(List.of(config.toString(), "--tree", "--matchers", side.matchers()));
        args.addAll(arguments(sets.get(i)));
        CliRun ours = RoutesCommandTest.routes(args.toArray(String[]::new));
        String theirs = answers.get(i).get(60, TimeUnit.SECONDS);
        if (ours.exit() != 0 || !ours.out().equals(theirs)) {
          disagreements.add(
              "labels "
                  + arguments(sets.get(i))
                  + "\n--- "
                  + side.name()
                  + " config routes test --tree\n"
                  + theirs
                  + "--- firedrill routes --tree\n"
                  + ours.out()
                  + ours.err());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(disagreements)
        .as(
            () ->
                "firedrill routes and "
                    + side.name()
                    + " disagree on "
                    + config
                    + " in "
                    + disagreements.size()
                    + " of "
                    + sets.size()
                    + " label sets\n--- config\n"
                    + read(config)
                    + "\n"
                    + String.join("\n", disagreements))
        .isEmpty();
  }

  /**
   * Each label as a quoted matcher argument, so both sides read the same value whatever it holds; a
   * name with a space or a reserved character quoted too, which only the UTF-8 grammar reads.
   */
  private static List<String> arguments(Map<String, String> labels) {
    return labels.entrySet().stream()
        .map(e -> name(e.getKey()) + "=" + quoted(e.getValue()))
        .toList();
  }

  private static String name(String name) {
    return name.matches("[^\\s{}!=~,\\\\\"'`]+") ? name : quoted(name).replace("\t", "\\t");
  }

  private static String quoted(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\n", "\\n").replace("\"", "\\\"") + "\"";
  }

  private static String amtool(Side side, Path config, List<String> labels)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(side.amtool().toString()));
    command.addAll(side.amtoolFlags());
    command.addAll(List.of("config", "routes", "test", "--config.file=" + config, "--tree"));
    command.addAll(labels);
    Process process =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("amtool did not finish: " + command);
    }
    if (process.exitValue() != 0) {
      throw new AssertionError(
          "amtool exited " + process.exitValue() + ": " + command + "\n" + out);
    }
    // amtool 0.27+ logs its matcher warnings on stdout (firedrill's go to stderr).
    return out.lines()
        .filter(line -> !LOG_LINE.matcher(line).lookingAt())
        .map(line -> line + "\n")
        .collect(java.util.stream.Collectors.joining());
  }

  private static String read(Path config) {
    try {
      return Files.readString(config);
    } catch (IOException e) {
      return "(cannot read: " + e.getMessage() + ")";
    }
  }
}
