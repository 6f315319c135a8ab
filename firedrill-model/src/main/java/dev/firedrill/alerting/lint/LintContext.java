package dev.firedrill.alerting.lint;

import dev.firedrill.format.IoReasons;
import dev.firedrill.promconfig.Config;
import dev.firedrill.promconfig.ConfigReader;
import dev.firedrill.promconfig.GlobalConfig;
import dev.firedrill.promconfig.RuleFileGlob;
import dev.firedrill.promconfig.ScrapeConfig;
import dev.firedrill.yaml.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the linter takes from a {@code prometheus.yml}, read by the model's {@link ConfigReader}
 * with Prometheus's defaults: the scrape interval (the longest of the global one and every job's
 * own, since a window must suit every series it may read), the global evaluation interval, and the
 * rule files it loads (their recording rules and companion alerts count too), globs expanded as
 * Prometheus expands them. Keys the model does not hold are Prometheus's business, not the
 * linter's.
 */
public record LintContext(
    Duration scrapeInterval, Duration evaluationInterval, List<Path> ruleFiles) {

  /** Reads the file; returns null and adds to {@code problems} when it cannot. */
  public static LintContext read(Path file, List<Problem> problems) {
    String display = file.toString();
    String content;
    try {
      content = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      problems.add(new Problem(display, "", "cannot read: " + IoReasons.of(e), 0, 0));
      return null;
    }
    ConfigReader.Result<Problem> read =
        ConfigReader.read(
            display,
            file.toAbsolutePath().getParent(),
            content,
            ConfigReader.Keys.PROMETHEUS,
            GlobalConfig.DEFAULTS,
            Problem::new);
    problems.addAll(read.all());
    Config config = read.config();
    if (config == null) {
      return null;
    }
    Duration scrape = config.global().scrapeInterval();
    for (ScrapeConfig job : config.scrapeConfigs()) {
      if (job.scrapeInterval().compareTo(scrape) > 0) {
        scrape = job.scrapeInterval();
      }
    }
    List<Path> ruleFiles = new ArrayList<>();
    for (int i = 0; i < config.ruleFiles().size(); i++) {
      String pattern = config.ruleFiles().get(i);
      try {
        ruleFiles.addAll(
            RuleFileGlob.expand(pattern)); // a file that is absent Prometheus ignores too
      } catch (IOException e) {
        problems.add(
            new Problem(display, "/rule_files/" + i, "cannot list " + pattern + ": " + e, 0, 0));
        return null;
      }
    }
    return new LintContext(scrape, config.global().evaluationInterval(), List.copyOf(ruleFiles));
  }
}
