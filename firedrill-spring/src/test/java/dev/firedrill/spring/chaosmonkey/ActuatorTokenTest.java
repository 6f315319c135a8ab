package dev.firedrill.spring.chaosmonkey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.experiment.TokenSource;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultException;
import dev.firedrill.testing.StubHttpServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The actuator's token, read from a file: sent as a bearer token, and absent from every message
 * when a secured actuator (Spring Security's 401 body) refuses it.
 */
class ActuatorTokenTest {

  private static final String TOKEN = "actuator-7c1f-9b2e-secret";

  @TempDir Path dir;
  private final StubHttpServer actuator = StubHttpServer.start();

  @AfterEach
  void stop() {
    actuator.close();
  }

  @Test
  void aRefusedTokenIsNamedByItsPlaceNeverByItsValue() throws Exception {
    Path file = dir.resolve("token");
    Files.writeString(file, TOKEN + "\n");
    actuator.respondJson(
        401,
        "{\"timestamp\":\"2026-01-01T00:00:00.000+00:00\",\"status\":401,\"error\":\"Unauthorized\","
            + "\"path\":\"/actuator/chaosmonkey/status\"}");
    ChaosMonkeySpec spec =
        Monkeys.spec(
            actuator.url("/actuator"), new TokenSource.FromFile(file), Monkeys.latency(1, 10, 10));
    Fault fault = Monkeys.fault(spec, Monkeys.context(1.0, Map.of()));

    assertThatThrownBy(fault::inject)
        .isInstanceOf(FaultException.class)
        .hasMessage(
            "spring-chaos-monkey: GET "
                + actuator.url("/actuator/chaosmonkey/status")
                + " answered 401 Unauthorized; expected the token from file "
                + file
                + " to be accepted")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(TOKEN));
    assertThat(actuator.lastRequest().headers()).containsEntry("authorization", "Bearer " + TOKEN);
    assertThat(fault.verify().detail()).doesNotContain(TOKEN).contains("401");
    assertThat(fault.manualRevertCommand())
        .contains("Authorization: Bearer $(cat " + file + ")")
        .doesNotContain(TOKEN);
  }

  /**
   * An actuator behind a gateway whose 401 page quotes the header it refused: the token was printed
   * whole in the rollback's failure, the journal and the console (EnvironmentSecretsLeakTest found
   * it); redacted before the body is cut now.
   */
  @Test
  void aRefusalThatEchoesTheTokenNeverPrintsIt() throws Exception {
    Path file = dir.resolve("token");
    Files.writeString(file, TOKEN + "\n");
    actuator.respond(
        401, "text/html", "<html><p>Authorization: Bearer " + TOKEN + "</p><p>" + TOKEN + "</p>");
    ChaosMonkeySpec spec =
        Monkeys.spec(
            actuator.url("/actuator"), new TokenSource.FromFile(file), Monkeys.latency(1, 10, 10));
    Fault fault = Monkeys.fault(spec, Monkeys.context(1.0, Map.of()));

    assertThatThrownBy(fault::inject)
        .isInstanceOf(FaultException.class)
        .hasMessageContaining("Bearer <redacted>")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(TOKEN.substring(0, 12)));
    try {
      fault.revert(); // the rollback's failure printed the whole page, token and all
    } catch (FaultException e) {
      assertThat(e.getMessage()).contains("401").doesNotContain(TOKEN.substring(0, 12));
    }
    assertThat(fault.verify().detail()).doesNotContain(TOKEN.substring(0, 12));
  }

  @Test
  void withoutATokenA401SaysWhereOneGoes() {
    actuator.respondJson(401, "{\"status\":401,\"error\":\"Unauthorized\"}");
    Fault fault =
        Monkeys.fault(
            Monkeys.spec(actuator.url("/actuator"), TokenSource.none(), Monkeys.latency(1, 10, 10)),
            Monkeys.context(1.0, Map.of()));

    assertThatThrownBy(fault::inject)
        .hasMessageEndingWith(
            "answered 401 Unauthorized; expected token_env or token_file with the actuator's"
                + " bearer token");
    assertThat(actuator.lastRequest().headers()).doesNotContainKey("authorization");
  }
}
