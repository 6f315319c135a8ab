package dev.firedrill.spring.testing;

import dev.firedrill.net.Loopback;
import dev.firedrill.spring.app.DrillApplication;
import dev.firedrill.testing.Poll;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The real Spring Boot 3.5 application of the test sources, with chaos-monkey-spring-boot, run as a
 * child JVM from this JVM's test classpath on a free loopback port, with the chaos-monkey profile
 * and its actuator endpoint exposed; Chaos Monkey itself starts disabled.
 */
public final class SpringApp implements AutoCloseable {

  /** Spring Boot starts in seconds; a loaded two-core machine may need a good deal more. */
  private static final Duration READY = Duration.ofSeconds(120);

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final Process process;
  private final Path log;
  private final int port;

  private SpringApp(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
  }

  public static SpringApp start(Path dir) throws IOException, InterruptedException {
    int port = Loopback.freePort();
    Path log = dir.resolve("spring-app.log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(DrillApplication.class.getName());
    command.add("--server.address=127.0.0.1");
    command.add("--server.port=" + port);
    command.add("--spring.profiles.active=chaos-monkey");
    command.add("--chaos.monkey.enabled=false");
    command.add("--management.endpoint.chaosmonkey.enabled=true");
    command.add("--management.endpoints.web.exposure.include=health,chaosmonkey");
    command.add("--spring.main.banner-mode=off");
    Process process =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    SpringApp app = new SpringApp(process, log, port);
    try {
      Poll.until(
          "the Spring Boot application on port " + port + " to be ready",
          READY,
          () -> {
            if (!process.isAlive()) {
              throw new AssertionError(
                  "the Spring Boot application exited with "
                      + process.exitValue()
                      + ": "
                      + app.tail());
            }
            return app.get("/actuator/health").statusCode() == 200
                ? Optional.of(true)
                : Optional.empty();
          });
    } catch (AssertionError | InterruptedException e) {
      app.close();
      throw e;
    }
    return app;
  }

  public URI actuator() {
    return URI.create("http://127.0.0.1:" + port + "/actuator");
  }

  public HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(30))
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  public HttpResponse<String> post(String path) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The last lines of the application's output, for a failure message. */
  public String tail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor();
    }
  }
}
