package dev.firedrill.testing;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * What any HTTP backend can do wrong, as a {@link StubHttpServer} does it: the cases every
 * misbehaving-backend test runs against the backend it stands in for (Prometheus, Alertmanager,
 * Grafana, the Pushgateway, a fault proxy's admin API). A wrong shape inside a valid answer is each
 * backend's own and stays in its test.
 */
public enum Misbehaviour {
  NEVER_ANSWERS(StubHttpServer::hang),
  /** Six seconds: longer than every timeout met, the proxy admin API's fixed 5 s included. */
  ANSWERS_AFTER_THE_TIMEOUT(s -> s.delay(Duration.ofSeconds(6))),
  HTML_500(s -> s.respond(500, "text/html", "<html><h1>Internal Server Error</h1></html>")),
  HTML_503(s -> s.respond(503, "text/html", "<html><h1>Service Unavailable</h1></html>")),
  INVALID_JSON(s -> s.respondJson(200, "{\"status\":\"success\",\"data\":{")),
  LOGIN_REDIRECT(s -> s.redirect(302, "/login?redirect=%2Fapi")),
  /** Half the body, then a FIN. */
  CUT_MID_BODY(StubHttpServer::cutMidBody),
  /** Half the body, then a TCP reset (RST). */
  RESET_MID_BODY(StubHttpServer::resetMidBody),
  /** A JSON array that never closes: only a reader that bounds what it reads stops. */
  ENDLESS_BODY(s -> s.endlessBody("[", "{\"id\":1,\"name\":\"firedrill\"},")),
  /**
   * Away for 1 s (the request that set it off is cut, the next ones refused), then back on the same
   * port answering as before: shorter than a rollback's three attempts 0.5 s and 1 s apart.
   */
  GONE_AND_BACK(s -> s.goneFor(Duration.ofSeconds(1)));

  private final Consumer<StubHttpServer> misbehave;

  Misbehaviour(Consumer<StubHttpServer> misbehave) {
    this.misbehave = misbehave;
  }

  /**
   * Each of {@code sides} (a backend, a phase: what a test varies besides the misbehaviour) with
   * each misbehaviour, as a {@code @MethodSource}'s arguments {@code (side, misbehaviour)}.
   */
  public static <T> Stream<Arguments> against(T[] sides) {
    return Stream.of(sides).flatMap(side -> Stream.of(values()).map(m -> Arguments.of(side, m)));
  }

  /** Makes {@code server} misbehave so from now on. */
  public void on(StubHttpServer server) {
    misbehave.accept(server);
  }
}
