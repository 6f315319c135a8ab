package dev.firedrill.programme.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.firedrill.experiment.MetricsExport;
import dev.firedrill.testing.MinimalExperiment;
import dev.firedrill.yaml.Problem;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SuiteLoaderTest {

  @TempDir Path dir;

  private Path write(String name, String text) throws IOException {
    Path path = dir.resolve(name);
    Files.createDirectories(path.getParent());
    return Files.writeString(path, text);
  }

  @Test
  void defaultsFillWhatAnExperimentLacksAndTheExperimentWinsWhereItSpeaks() throws Exception {
    write("a.yaml", MinimalExperiment.withoutPrometheus("").replace("id: drill", "id: a"));
    write(
        "drills/b.yaml",
        MinimalExperiment.with("prometheus:\n  url: http://127.0.0.1:9191\n", "")
            .replace("id: drill", "id: b"));
    write(
        "drills/c.yml",
        MinimalExperiment.withoutPrometheus("markers:\n  metrics: {scrape_wait: 2s}\n")
            .replace("id: drill", "id: c"));
    Path suiteFile =
        write(
            "suite.yaml",
            """
            id: quarterly
            cooldown: 45s
            experiments: [a.yaml, drills]
            defaults:
              prometheus: {url: 'http://127.0.0.1:9090', timeout: 3s}
              markers:
                metrics: {listen: '127.0.0.1:19466', scrape_wait: 5s}
            """);

    Suite suite = SuiteLoader.load(suiteFile);

    assertThat(suite.id()).isEqualTo("quarterly");
    assertThat(suite.cooldown()).isEqualTo(Duration.ofSeconds(45));
    assertThat(suite.entries())
        .extracting(e -> e.experiment().id())
        .containsExactly("a", "b", "c"); // as listed; a directory's files by name
    assertThat(suite.entries().get(0).experiment().prometheus().url())
        .isEqualTo(URI.create("http://127.0.0.1:9090"));
    assertThat(suite.entries().get(0).experiment().prometheus().timeout())
        .isEqualTo(Duration.ofSeconds(3));
    // b's own url wins, and b keeps its own (default) timeout: its section is merged key by key
    assertThat(suite.entries().get(1).experiment().prometheus().url())
        .isEqualTo(URI.create("http://127.0.0.1:9191"));
    assertThat(suite.entries().get(1).experiment().prometheus().timeout())
        .isEqualTo(Duration.ofSeconds(3));
    // c's markers: its own scrape_wait over the shared one, the shared listen address beside it
    MetricsExport c = suite.entries().get(2).experiment().markers().metrics().orElseThrow();
    assertThat(c.scrapeWait()).isEqualTo(Duration.ofSeconds(2));
    assertThat(c.listen()).contains("127.0.0.1:19466");
    assertThat(suite.entries().get(0).experiment().markers().metrics().orElseThrow().scrapeWait())
        .isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void everyProblemOfEveryFileIsReportedAtOnceWithFileAndKey() throws Exception {
    write("good.yaml", MinimalExperiment.withoutPrometheus("").replace("id: drill", "id: good"));
    write(
        "bad.yaml",
        MinimalExperiment.withoutPrometheus("").replace("max_duration: 15m", "max_duration: soon"));
    write("worse.yaml", MinimalExperiment.withoutPrometheus("").replace("title: A drill\n", ""));
    Path suiteFile =
        write(
            "suite.yaml",
            """
            id: Quarterly
            cooldwn: 1m
            experiments: [good.yaml, bad.yaml, worse.yaml, missing.yaml]
            defaults:
              prometheus: {url: 'ftp://nowhere'}
              steady_state: {}
            """);

    SuiteException e =
        catchThrowableOfType(SuiteException.class, () -> SuiteLoader.load(suiteFile));

    String suite = suiteFile.toString();
    assertThat(e.problems())
        .extracting(Problem::file, Problem::pointer)
        .contains(
            org.assertj.core.groups.Tuple.tuple(suite, "/cooldwn"),
            org.assertj.core.groups.Tuple.tuple(suite, "/id"),
            org.assertj.core.groups.Tuple.tuple(suite, "/defaults/steady_state"),
            org.assertj.core.groups.Tuple.tuple(suite, "/experiments/3"),
            org.assertj.core.groups.Tuple.tuple(
                dir.resolve("bad.yaml").toString(), "/blast_radius/max_duration"),
            org.assertj.core.groups.Tuple.tuple(dir.resolve("worse.yaml").toString(), "/title"));
    // the shared url is wrong once in the suite file, and each experiment that took it says so
    assertThat(e.problems())
        .filteredOn(p -> p.pointer().equals("/defaults/prometheus/url"))
        .allSatisfy(
            p -> {
              assertThat(p.file()).isEqualTo(suite);
              assertThat(p.line()).isEqualTo(5);
            })
        .extracting(Problem::message)
        .anySatisfy(m -> assertThat(m).endsWith("(in " + dir.resolve("good.yaml") + ")"));
    assertThat(e.getMessage()).contains(suite + ": /experiments/3: no such file or directory");
  }
}
