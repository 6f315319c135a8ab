package dev.firedrill.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.testing.FiredrillJar;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the shaded jar carries: firedrill-spring's fault kind, and nothing of the Spring Boot
 * application its tests run (Spring, Chaos Monkey, Tomcat stay in that module's test scope); an
 * SLF4J provider, so the libraries that log through it print nothing of their own.
 */
class JarContentsIT {

  @TempDir Path dir;

  private static JarFile jar() throws IOException {
    String path = System.getenv("FIREDRILL_JAR");
    assertThat(path).as("FIREDRILL_JAR (set by failsafe to the shaded jar)").isNotBlank();
    return new JarFile(path);
  }

  @Test
  void springChaosMonkeyIsListedAndNoSpringClassShips() throws IOException {
    try (JarFile jar = jar()) {
      ZipEntry services = jar.getEntry("META-INF/services/dev.firedrill.fault.FaultKind");
      String kinds =
          new String(jar.getInputStream(services).readAllBytes(), StandardCharsets.UTF_8);
      List<String> foreign =
          jar.stream()
              .map(ZipEntry::getName)
              .filter(
                  name ->
                      name.startsWith("org/springframework/")
                          || name.startsWith("de/codecentric/")
                          || name.startsWith("org/apache/catalina/")
                          || name.startsWith("dev/firedrill/spring/app/"))
              .toList();

      assertThat(kinds).contains("dev.firedrill.spring.chaosmonkey.ChaosMonkeyKind");
      assertThat(foreign).isEmpty();
    }
  }

  @Test
  void aCommandThatOpensTheHistoryPrintsNoLoggingWarning() throws Exception {
    FiredrillJar.Run run = FiredrillJar.run(dir, Duration.ofSeconds(60), "history");
    assertThat(run.output()).startsWith("no detection history in ").doesNotContain("SLF4J");
  }
}
