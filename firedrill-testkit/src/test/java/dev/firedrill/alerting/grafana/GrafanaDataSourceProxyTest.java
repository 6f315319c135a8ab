package dev.firedrill.alerting.grafana;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.prometheus.QueryResult;
import dev.firedrill.testing.RealPrometheus;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SLIs through Grafana's data-source proxy: WireMock plays Grafana, checks the service-account
 * token and proxies {@code /api/datasources/proxy/uid/prom/...} to a real Prometheus, so the
 * answers are the real engine's; a data source whose proxy refuses the POST answers as Grafana
 * does.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GrafanaDataSourceProxyTest {

  @RegisterExtension
  static final WireMockExtension grafana =
      WireMockExtension.newInstance()
          .options(wireMockConfig().bindAddress("127.0.0.1").dynamicPort())
          .build();

  private static final String TOKEN = "glsa_proxy-service-account-s3cr3t";
  private static final String PROXY = "/api/datasources/proxy/uid/prom";

  private HttpPrometheusClient client(String uid) {
    return new HttpPrometheusClient(
        URI.create("http://127.0.0.1:" + grafana.getPort() + "/api/datasources/proxy/uid/" + uid),
        Duration.ofSeconds(5),
        Optional.of(TOKEN));
  }

  @Test
  void queriesReachTheRealPrometheusBehindTheProxyWithTheToken() throws Exception {
    try (RealPrometheus prometheus = RealPrometheus.start(List.of())) {
      grafana.stubFor(
          any(urlPathMatching(PROXY + "/.*"))
              .withHeader("Authorization", equalTo("Bearer " + TOKEN))
              .willReturn(
                  aResponse()
                      .proxiedFrom(prometheus.url().toString())
                      .withProxyUrlPrefixToRemove(PROXY)));

      QueryResult result = client("prom").query("sum(vector(0.125) * 2)");

      assertThat(result).isInstanceOf(QueryResult.Vector.class);
      assertThat(((QueryResult.Vector) result).samples().get(0).value()).isEqualTo(0.25);
      grafana.verify(
          postRequestedFor(urlEqualTo(PROXY + "/api/v1/query"))
              .withHeader("Authorization", equalTo("Bearer " + TOKEN)));
    }
  }

  @Test
  void aPostTheProxyDoesNotAllowIsOneLineNamingGrafanaAndNotTheToken() {
    grafana.stubFor(
        post(urlPathMatching("/api/datasources/proxy/uid/strict/.*"))
            .willReturn(
                aResponse()
                    .withStatus(403)
                    .withHeader("Content-Type", "application/json")
                    .withBody(
                        "{\"message\":\"non allow-listed POSTs not allowed on proxied Prometheus"
                            + " datasource\"}")));

    assertThatThrownBy(() -> client("strict").query("up"))
        .isInstanceOf(PrometheusException.class)
        .hasMessageStartingWith("Grafana's data-source proxy at http://127.0.0.1:")
        .hasMessageContaining(
            "refused query \"up\" (HTTP 403: {\"message\":\"non allow-listed POSTs not allowed on"
                + " proxied Prometheus datasource\"})")
        .hasMessageNotContaining(TOKEN)
        .message()
        .doesNotContain("\n");
  }
}
