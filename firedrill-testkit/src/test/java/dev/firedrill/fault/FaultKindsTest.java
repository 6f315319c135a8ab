package dev.firedrill.fault;

import static dev.firedrill.testing.MinimalExperiment.TEXT;
import static dev.firedrill.testing.MinimalExperiment.replace;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.experiment.ExperimentException;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.FaultSpec.ExporterDown;
import dev.firedrill.experiment.FaultSpec.HttpToxic;
import dev.firedrill.yaml.Problem;
import java.lang.reflect.RecordComponent;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The fault kinds as a whole: every kind of spec has a kind installed (a descriptor left out of
 * META-INF/services fails here), and every kind reads its entry, writes it to the journal in the
 * file's words and reads that back.
 */
class FaultKindsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final URI ADMIN = URI.create("http://127.0.0.1:8474");
  private static final Optional<Duration> TTL = Optional.of(Duration.ofMinutes(5));

  /**
   * One entry of method.faults (flow style, on one line), the spec it is, and the journal's JSON of
   * it.
   */
  private record Sample(String entry, FaultSpec spec, String journal) {}

  /**
   * One sample per kind, in the order messages list the kinds; every key of the kind in at least
   * one.
   */
  private static final List<Sample> SAMPLES =
      List.of(
          new Sample(
              "{kind: process-kill, match: payments-server, signal: sigterm, share: '50%', ttl: 5m}",
              new FaultSpec.ProcessKill("payments-server", "TERM", Optional.of(0.5), TTL),
              "{\"kind\":\"process-kill\",\"match\":\"payments-server\",\"signal\":\"TERM\",\"share\":0.5,\"ttl\":\"5m\"}"),
          new Sample(
              "{kind: cpu-burn, workers: 2, ttl: 5m}",
              new FaultSpec.CpuBurn(2, TTL),
              "{\"kind\":\"cpu-burn\",\"workers\":2,\"ttl\":\"5m\"}"),
          new Sample(
              "{kind: http-latency, proxy: 'http://127.0.0.1:8474', share: 0.05, latency: 200ms, jitter: 20ms,"
                  + " ttl: 5m, admin_token_env: PROXY_TOKEN}",
              new HttpToxic(
                  ADMIN,
                  "payments",
                  0.05,
                  new HttpToxic.Latency(Duration.ofMillis(200), Duration.ofMillis(20)),
                  TTL,
                  Optional.of("PROXY_TOKEN")),
              "{\"kind\":\"http-latency\",\"proxy\":\"http://127.0.0.1:8474\",\"proxy_name\":\"payments\",\"share\":0.05,"
                  + "\"latency\":\"200ms\",\"jitter\":\"20ms\",\"admin_token_env\":\"PROXY_TOKEN\",\"ttl\":\"5m\"}"),
          new Sample(
              "{kind: http-error, proxy: 'http://127.0.0.1:8474', proxy_name: orders, percent: '2.5%', status: 502,"
                  + " ttl: 5m}",
              new HttpToxic(
                  ADMIN, "orders", 0.025, new HttpToxic.Error(502), TTL, Optional.empty()),
              "{\"kind\":\"http-error\",\"proxy\":\"http://127.0.0.1:8474\",\"proxy_name\":\"orders\",\"share\":0.025,"
                  + "\"status\":502,\"ttl\":\"5m\"}"),
          new Sample(
              "{kind: http-reset, proxy: 'http://127.0.0.1:8474', ttl: 5m}",
              new HttpToxic(ADMIN, "payments", 1, new HttpToxic.Reset(), TTL, Optional.empty()),
              "{\"kind\":\"http-reset\",\"proxy\":\"http://127.0.0.1:8474\",\"proxy_name\":\"payments\",\"share\":1.0,"
                  + "\"ttl\":\"5m\"}"),
          new Sample(
              "{kind: http-timeout, proxy: 'http://127.0.0.1:8474', share: 0.1, timeout: 3s}",
              new HttpToxic(
                  ADMIN,
                  "payments",
                  0.1,
                  new HttpToxic.Timeout(Duration.ofSeconds(3)),
                  Optional.empty(),
                  Optional.empty()),
              "{\"kind\":\"http-timeout\",\"proxy\":\"http://127.0.0.1:8474\",\"proxy_name\":\"payments\",\"share\":0.1,"
                  + "\"timeout\":\"3s\"}"),
          new Sample(
              "{kind: exporter-down, proxy: 'http://127.0.0.1:18475', proxy_name: orders-metrics, mode: RESET,"
                  + " admin_token_env: PROXY_TOKEN}",
              new ExporterDown(
                  URI.create("http://127.0.0.1:18475"),
                  "orders-metrics",
                  ExporterDown.Mode.RESET,
                  Optional.empty(),
                  Optional.of("PROXY_TOKEN")),
              "{\"kind\":\"exporter-down\",\"proxy\":\"http://127.0.0.1:18475\",\"proxy_name\":\"orders-metrics\","
                  + "\"mode\":\"reset\",\"admin_token_env\":\"PROXY_TOKEN\"}"),
          new Sample(
              "{kind: command, inject: [/usr/bin/mktemp], revert: [/bin/rm, -f, '{{ state }}'],"
                  + " verify: [/usr/bin/test, '!', -e, '{{ state }}'], state: true, timeout: 10s, ttl: 5m}",
              new FaultSpec.Command(
                  List.of("/usr/bin/mktemp"),
                  List.of("/bin/rm", "-f", "{{ state }}"),
                  List.of("/usr/bin/test", "!", "-e", "{{ state }}"),
                  true,
                  Duration.ofSeconds(10),
                  TTL),
              "{\"kind\":\"command\",\"inject\":[\"/usr/bin/mktemp\"],\"revert\":[\"/bin/rm\",\"-f\",\"{{ state }}\"],"
                  + "\"verify\":[\"/usr/bin/test\",\"!\",\"-e\",\"{{ state }}\"],\"state\":true,\"timeout\":\"10s\","
                  + "\"ttl\":\"5m\"}"));

  private static String withEntry(String entry) {
    return replace(
        TEXT, "    - kind: process-kill\n      match: payments-server\n", "    - " + entry + "\n");
  }

  private static FaultSpec read(String entry) throws ExperimentException {
    return ExperimentLoader.load("exp.yaml", withEntry(entry)).method().faults().get(0);
  }

  private static List<String> problems(String entry) {
    try {
      ExperimentLoader.load("exp.yaml", withEntry(entry));
      return List.of();
    } catch (ExperimentException e) {
      return e.problems().stream().map(Problem::toString).toList();
    }
  }

  /**
   * Every kind of spec this module's FaultSpec declares: each record nested in it, or for a record
   * with a sealed part (HttpToxic's effect), each kind of that part.
   */
  private static Set<Class<?>> specKinds() {
    Set<Class<?>> kinds = new LinkedHashSet<>();
    for (Class<?> record :
        Arrays.stream(FaultSpec.class.getDeclaredClasses()).filter(Class::isRecord).toList()) {
      List<Class<?>> sealedParts =
          Arrays.stream(record.getRecordComponents())
              .map(RecordComponent::getType)
              .filter(Class::isSealed)
              .toList();
      if (sealedParts.isEmpty()) {
        kinds.add(record);
      }
      sealedParts.forEach(part -> kinds.addAll(leaves(part)));
    }
    return kinds;
  }

  private static Set<Class<?>> leaves(Class<?> type) {
    if (!type.isSealed()) {
      return Set.of(type);
    }
    Set<Class<?>> leaves = new LinkedHashSet<>();
    Arrays.stream(type.getPermittedSubclasses()).forEach(sub -> leaves.addAll(leaves(sub)));
    return leaves;
  }

  /** The kind of spec a sample stands for, as {@link #specKinds} counts them. */
  private static Class<?> specKind(FaultSpec spec) throws Exception {
    for (RecordComponent component : spec.getClass().getRecordComponents()) {
      if (component.getType().isSealed()) {
        return component.getAccessor().invoke(spec).getClass();
      }
    }
    return spec.getClass();
  }

  /** The samples' kinds that {@code kinds} does not have. */
  private static List<String> unregistered(FaultKinds kinds) {
    return SAMPLES.stream()
        .map(sample -> sample.spec().kind())
        .filter(name -> !kinds.names().contains(name))
        .toList();
  }

  @Test
  void everyKindOfSpecHasASample() throws Exception {
    List<Class<?>> sampled = new ArrayList<>();
    for (Sample sample : SAMPLES) {
      sampled.add(specKind(sample.spec()));
    }
    assertThat(sampled)
        .as("a new record or effect needs a sample here, and a kind")
        .containsExactlyInAnyOrderElementsOf(specKinds());
  }

  @Test
  void everySampledKindIsInstalledInTheOrderMessagesListThem() {
    assertThat(unregistered(FaultKinds.installed()))
        .as("kinds missing from META-INF/services")
        .isEmpty();
    assertThat(FaultKinds.installed().names())
        .containsExactlyElementsOf(SAMPLES.stream().map(sample -> sample.spec().kind()).toList());
  }

  @Test
  void aKindLeftOutOfTheServicesFileIsNamed() {
    List<FaultKind<?>> withoutTimeout =
        FaultKinds.installed().kinds().stream()
            .filter(kind -> !kind.name().equals("http-timeout"))
            .toList();
    assertThat(unregistered(new FaultKinds(withoutTimeout))).containsExactly("http-timeout");
  }

  @Test
  void everyKindReadsItsEntryAndRoundTripsThroughTheJournal() throws Exception {
    for (Sample sample : SAMPLES) {
      FaultSpec spec = read(sample.entry());
      assertThat(spec).as(sample.entry()).isEqualTo(sample.spec());
      String journal = FaultKinds.installed().writeJournal(spec).toString();
      assertThat(journal).as(sample.entry()).isEqualTo(sample.journal());
      assertThat(FaultKinds.installed().readJournal(JSON.readTree(journal)))
          .as(journal)
          .isEqualTo(spec);
    }
  }

  @Test
  void everyKindBuildsItsFault() throws Exception {
    FaultContext context = Contexts.real("kinds", 1, 1);
    for (Sample sample : SAMPLES) {
      assertThat(FaultKinds.installed().create(sample.spec(), context, 0).spec())
          .isEqualTo(sample.spec());
    }
  }

  /**
   * A kind reads exactly the keys it lists: a listed key is never unknown, another kind's key
   * always is.
   */
  @Test
  void everyKindReadsTheKeysItListsAndNoOthers() {
    Set<String> everyKey = new LinkedHashSet<>();
    FaultKinds.installed().kinds().forEach(kind -> everyKey.addAll(kind.keys()));
    for (Sample sample : SAMPLES) {
      FaultKind<?> kind = FaultKinds.installed().kind(sample.spec().kind());
      for (String key : everyKey) {
        if (sample.entry().contains(" " + key + ":")) {
          continue;
        }
        String entry =
            sample.entry().substring(0, sample.entry().length() - 1) + ", " + key + ": x}";
        boolean unknown =
            problems(entry).stream()
                .anyMatch(
                    problem ->
                        problem.startsWith("exp.yaml: /method/faults/0/" + key + ": unknown key"));
        assertThat(unknown).as(kind.name() + " with " + key).isEqualTo(!kind.keys().contains(key));
      }
    }
  }

  @Test
  void aJournalWrittenBeforeSharesReadsItsPercentAsAPercentage() throws Exception {
    assertThat(
            FaultKinds.installed()
                .readJournal(
                    JSON.readTree(
                        "{\"kind\":\"http-error\",\"proxy\":"
                            + "\"http://127.0.0.1:8474\",\"proxy_name\":\"payments\",\"percent\":20.0,\"status\":503,\"ttl\":\"5m\"}")))
        .isEqualTo(
            new HttpToxic(ADMIN, "payments", 0.2, new HttpToxic.Error(503), TTL, Optional.empty()));
    assertThat(
            FaultKinds.installed()
                .readJournal(
                    JSON.readTree(
                        "{\"kind\":\"process-kill\",\"match\":"
                            + "\"payments-server\",\"signal\":\"TERM\",\"percent\":50.0,\"ttl\":\"5m\"}")))
        .isEqualTo(new FaultSpec.ProcessKill("payments-server", "TERM", Optional.of(0.5), TTL));
  }

  @Test
  void aJournalSpecWithoutADefaultedKeyReadsAsTheFileWould() throws Exception {
    // written by hand, without a mode: the default, error, as in an experiment file
    assertThat(
            FaultKinds.installed()
                .readJournal(
                    JSON.readTree(
                        "{\"kind\":\"exporter-down\",\"proxy\":"
                            + "\"http://127.0.0.1:18475\",\"proxy_name\":\"payments-metrics\",\"ttl\":\"2m\"}")))
        .isEqualTo(
            new ExporterDown(
                URI.create("http://127.0.0.1:18475"),
                "payments-metrics",
                ExporterDown.Mode.ERROR,
                Optional.of(Duration.ofMinutes(2)),
                Optional.empty()));
  }

  @Test
  void aWrongJournalSpecSaysWhatIsWrongWithIt() {
    assertThatThrownBy(
            () -> FaultKinds.installed().readJournal(JSON.readTree("{\"kind\":\"pod-kill\"}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "spec: /kind: unknown fault kind \"pod-kill\"; expected one of: process-kill, cpu-burn,"
                + " http-latency, http-error, http-reset, http-timeout, exporter-down, command");
    assertThatThrownBy(
            () -> FaultKinds.installed().readJournal(JSON.readTree("{\"kind\":\"cpu-burn\"}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "spec: /workers: missing; cpu-burn needs workers: how many busy processes to start, at least 1");
    assertThatThrownBy(() -> FaultKinds.installed().readJournal(JSON.readTree("[]")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected the fault's spec, a mapping with its kind, got ARRAY");
  }

  @Test
  void anUnknownNameIsRefusedWithTheNearestKind() {
    assertThatThrownBy(() -> FaultKinds.installed().kind("cpu-brun"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown fault kind \"cpu-brun\"; did you mean \"cpu-burn\"?");
  }

  @Test
  void twoKindsOfOneNameAreRefused() {
    assertThatThrownBy(() -> new FaultKinds(List.of(new CpuBurnKind(), new CpuBurnKind())))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "two fault kinds are named cpu-burn: dev.firedrill.fault.CpuBurnKind and"
                + " dev.firedrill.fault.CpuBurnKind");
  }

  @Test
  void httpKindsPutTheirFaultInWordsForThePlan() {
    assertThat(
            SAMPLES.stream()
                .map(sample -> FaultKinds.installed().words(sample.spec()).orElse("-"))
                .toList())
        .containsExactly(
            "-",
            "-",
            "5% of calls to payments delayed 200ms \u00b1 20ms",
            "2.5% of calls to orders answered 502 without reaching orders",
            "100% of calls to payments reset (TCP RST)",
            "10% of calls to payments held 3s, then closed",
            "-",
            "-");
  }
}
