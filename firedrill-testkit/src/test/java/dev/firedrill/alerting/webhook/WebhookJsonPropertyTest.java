package dev.firedrill.alerting.webhook;

import dev.firedrill.testing.hostile.CleanOutcome;
import dev.firedrill.testing.hostile.HostileInputs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The webhook payload reader on hostile bodies: a message, or one line naming where the body is
 * wrong (its line and column, or the field).
 */
class WebhookJsonPropertyTest {

  /** Not JSON: at a line and column; JSON of the wrong shape: the field, quoted or indexed. */
  private static final CleanOutcome OUTCOME =
      new CleanOutcome(
          "the webhook payload reader",
          Pattern.compile(
              "\\(at line \\d+, column \\d+\\)$|^the body is not a JSON object|^\"[^\"]+\"|^alerts\\[\\d+\\]"));

  @Property(tries = 10_000, shrinking = ShrinkingMode.OFF)
  void anyBodyIsAMessageOrOneLineNamingWhere(@ForAll("bodies") String body) {
    OUTCOME.check(
        body,
        () -> {
          try {
            WebhookJson.decode(body.getBytes(StandardCharsets.UTF_8));
            return List.of();
          } catch (WebhookJson.Invalid e) {
            return List.of(String.valueOf(e.getMessage()));
          }
        });
  }

  @Provide
  Arbitrary<String> bodies() {
    return HostileInputs.of(
        HostileInputs.texts(Path.of("fixtures/alerting")),
        new HostileInputs.Nesting("{\"a\":[", "1", "]}"),
        false);
  }

  @AfterContainer
  static void report() {
    System.out.println(OUTCOME.summary());
    OUTCOME.close();
  }
}
