package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.testing.StubHttpServer;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Which PromQL simulate's embedded Prometheus answers with, and what it says about it. */
class CompatOptionTest {

  private static Supplier<HttpPrometheusClient> client(URI url) {
    return () -> new HttpPrometheusClient(url, Duration.ofSeconds(2), Optional.empty());
  }

  private static String buildinfo(String version) {
    return "{\"status\":\"success\",\"data\":{\"version\":\""
        + version
        + "\",\"revision\":\"x\",\"branch\":\"HEAD\",\"buildUser\":\"u\",\"buildDate\":\"d\","
        + "\"goVersion\":\"go1.24\"}}";
  }

  @Test
  void theLivePrometheussMajorVersionChoosesTheMode() {
    try (StubHttpServer prometheus = StubHttpServer.start()) {
      URI url = prometheus.url("/");
      prometheus.respondJson(200, buildinfo("2.42.0+ds"));
      CompatOption.Choice two = CompatOption.choose("simulate", null, client(url));
      assertThat(two.compat()).isEqualTo(Compat.PROMETHEUS_2);
      assertThat(prometheus.lastRequest().path()).isEqualTo("/api/v1/status/buildinfo");
      assertThat(two.describe())
          .isEqualTo(
              "PromQL of Prometheus 2 (as "
                  + url.toString().replaceAll("/$", "")
                  + " is Prometheus 2.42.0+ds by its /api/v1/status/buildinfo)");

      prometheus.respondJson(200, buildinfo("3.5.3"));
      assertThat(CompatOption.choose("simulate", null, client(url)).compat())
          .isEqualTo(Compat.PROMETHEUS_3);

      prometheus.respondJson(200, buildinfo("dev"));
      CompatOption.Choice other = CompatOption.choose("simulate", null, client(url));
      assertThat(other.compat()).isEqualTo(Compat.PROMETHEUS_3);
      assertThat(other.why()).contains("says version dev, not a Prometheus 2.x or 3.x");
    }
  }

  @Test
  void theFlagWinsWithoutAskingAndAnUnreachableServerLeavesTheDefault() {
    try (StubHttpServer prometheus = StubHttpServer.start()) {
      prometheus.respondJson(200, buildinfo("3.5.3"));
      CompatOption.Choice flag = CompatOption.choose("simulate", 2, client(prometheus.url("/")));
      assertThat(flag.describe()).isEqualTo("PromQL of Prometheus 2 (--compat 2)");
      assertThat(prometheus.requests()).isEmpty();
    }
    URI closed = URI.create("http://127.0.0.1:" + StubHttpServer.closedPort());
    CompatOption.Choice fallback = CompatOption.choose("simulate", null, client(closed));
    assertThat(fallback.compat()).isEqualTo(Compat.PROMETHEUS_3);
    assertThat(fallback.why())
        .startsWith("the default; no version from " + closed + "/api/v1/status/buildinfo: ")
        .contains("cannot reach Prometheus");
    assertThatThrownBy(() -> CompatOption.choose("simulate", 5, client(closed)))
        .hasMessage(
            "firedrill simulate: --compat 5 is not usable (expected 2 or 3, the Prometheus major"
                + " version to answer as)");
  }
}
