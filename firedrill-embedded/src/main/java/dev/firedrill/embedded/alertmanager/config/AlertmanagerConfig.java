package dev.firedrill.embedded.alertmanager.config;

import dev.firedrill.alerting.routes.RouteTree;
import dev.firedrill.yaml.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the embedded Alertmanager runs: the route tree (read by the same loader as {@code firedrill
 * routes}), the receivers with their webhooks, and {@code global.resolve_timeout}. Everything else
 * an alertmanager.yml may hold is refused by name, so a config never runs with a part silently
 * ignored.
 *
 * @param receivers by name, in file order; every route's receiver is one of them
 * @param original the file's text, served by {@code /api/v2/status}
 */
public record AlertmanagerConfig(
    RouteTree routes, Map<String, Receiver> receivers, Duration resolveTimeout, String original) {

  /** Alertmanager's default {@code global.resolve_timeout}. */
  public static final Duration DEFAULT_RESOLVE_TIMEOUT = Duration.ofMinutes(5);

  public AlertmanagerConfig {
    Objects.requireNonNull(routes, "routes");
    receivers = Collections.unmodifiableMap(new LinkedHashMap<>(receivers));
    Objects.requireNonNull(resolveTimeout, "resolveTimeout");
    Objects.requireNonNull(original, "original");
  }

  public static AlertmanagerConfig load(Path path) throws ConfigException {
    String content;
    try {
      content = Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ConfigException(
          List.of(
              new Problem(
                  path.toString(),
                  "",
                  "cannot read: "
                      + (e instanceof NoSuchFileException ? "no such file" : e.getMessage()),
                  0,
                  0)));
    }
    return parse(path.toString(), content);
  }

  /** Reads the text; {@code file} names it in problems. */
  public static AlertmanagerConfig parse(String file, String content) throws ConfigException {
    return ConfigLoader.load(file, content);
  }
}
