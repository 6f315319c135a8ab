package dev.firedrill.alerting.grafana;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.firedrill.alerting.AlertmanagerAlert;
import dev.firedrill.alerting.AlertmanagerClient;
import dev.firedrill.alerting.routes.RouteTree;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Grafana's built-in Alertmanager ({@code /api/alertmanager/grafana/api/v2/...}) with a
 * service-account token: its alerts carry the contact point as receiver, its status holds the
 * configuration as a JSON object whose notification policies use {@code object_matchers}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GrafanaAlertmanagerTest {

  @RegisterExtension
  static final WireMockExtension grafana =
      WireMockExtension.newInstance()
          .options(wireMockConfig().bindAddress("127.0.0.1").dynamicPort())
          .build();

  private static final String TOKEN = "glsa_alertmanager-s3cr3t";
  private static final String BASE = "/api/alertmanager/grafana";

  private static final String STATUS =
      "{\"cluster\":{\"peers\":[],\"status\":\"disabled\"},\"config\":{\"route\":{\"receiver\":"
          + "\"grafana-default-email\",\"group_by\":[\"grafana_folder\",\"alertname\"],\"routes\":"
          + "[{\"receiver\":\"firedrill webhook\",\"object_matchers\":[[\"team\",\"=\",\"payments\"],"
          + "[\"severity\",\"=~\",\"page|critical\"]]}]},\"templates\":null,\"receivers\":["
          + "{\"name\":\"grafana-default-email\",\"grafana_managed_receiver_configs\":[{\"uid\":"
          + "\"e1\",\"name\":\"grafana-default-email\",\"type\":\"email\",\"settings\":{}}]},"
          + "{\"name\":\"firedrill webhook\",\"grafana_managed_receiver_configs\":[{\"uid\":\"w1\","
          + "\"name\":\"firedrill webhook\",\"type\":\"webhook\",\"settings\":{\"url\":"
          + "\"http://127.0.0.1:9099/alerts\"}}]}]},\"uptime\":\"2024-05-14T07:00:00.000Z\","
          + "\"versionInfo\":{\"branch\":\"N/A\",\"version\":\"N/A\"}}";

  private static final String ALERTS =
      "[{\"annotations\":{\"runbook_url\":\"https://runbooks.example.com/checkout-errors\","
          + "\"summary\":\"checkout answers more than 5% errors\"},\"endsAt\":"
          + "\"2024-05-14T07:16:00.000Z\",\"fingerprint\":\"c6eadffa33fcdf37\",\"receivers\":"
          + "[{\"name\":\"firedrill webhook\"}],\"startsAt\":\"2024-05-14T07:12:00.157Z\","
          + "\"status\":{\"inhibitedBy\":[],\"silencedBy\":[],\"state\":\"active\"},\"updatedAt\":"
          + "\"2024-05-14T07:12:00.160Z\",\"generatorURL\":"
          + "\"https://grafana.example.com/alerting/grafana/ddlo0d8rv3ocgd/view?orgId=1\","
          + "\"labels\":{\"__alert_rule_uid__\":\"ddlo0d8rv3ocgd\",\"alertname\":"
          + "\"Checkout error ratio high\",\"grafana_folder\":\"payments\",\"team\":\"payments\"}}]";

  private AlertmanagerClient client() {
    return new AlertmanagerClient(
        URI.create("http://127.0.0.1:" + grafana.getPort() + BASE),
        Duration.ofSeconds(5),
        Optional.of(TOKEN));
  }

  @Test
  void alertsCarryTheContactPointAndTheTokenIsSent() throws Exception {
    grafana.stubFor(get(urlEqualTo(BASE + "/api/v2/alerts")).willReturn(okJson(ALERTS)));

    List<AlertmanagerAlert> alerts = client().alerts();

    assertThat(alerts).hasSize(1);
    assertThat(alerts.get(0).receivers()).containsExactly("firedrill webhook");
    assertThat(alerts.get(0).startsAt()).isEqualTo(Instant.parse("2024-05-14T07:12:00.157Z"));
    grafana.verify(
        getRequestedFor(urlEqualTo(BASE + "/api/v2/alerts"))
            .withHeader("Authorization", equalTo("Bearer " + TOKEN)));
  }

  @Test
  void notificationPoliciesWithObjectMatchersPredictTheRoute() throws Exception {
    grafana.stubFor(get(urlEqualTo(BASE + "/api/v2/status")).willReturn(okJson(STATUS)));

    RouteTree routes = client().routes();

    assertThat(
            routes.receivers(
                Map.of(
                    "alertname",
                    "Checkout error ratio high",
                    "team",
                    "payments",
                    "severity",
                    "page")))
        .containsExactly("firedrill webhook");
    assertThat(routes.receivers(Map.of("alertname", "Other", "team", "search")))
        .containsExactly("grafana-default-email");
  }

  /** {@code GET /api/v1/provisioning/policies}: the policy tree itself, as Grafana's docs show. */
  private static final String POLICIES =
      "{\"receiver\":\"grafana-default-email\",\"group_by\":[\"grafana_folder\",\"alertname\"],"
          + "\"routes\":[{\"receiver\":\"payments pager\",\"object_matchers\":"
          + "[[\"team\",\"=\",\"payments\"],[\"severity\",\"!=\",\"info\"]],\"continue\":true,"
          + "\"provenance\":\"api\"},"
          + "{\"receiver\":\"firedrill webhook\",\"object_matchers\":[[\"grafana_folder\",\"=~\","
          + "\"pay.*\"]]}],\"group_wait\":\"30s\",\"group_interval\":\"5m\","
          + "\"repeat_interval\":\"4h\",\"provenance\":\"api\"}";

  @Test
  void theProvisioningApisPolicyTreeIsReadFirstWithTheToken() throws Exception {
    grafana.stubFor(
        get(urlEqualTo("/api/v1/provisioning/policies"))
            .withHeader("Authorization", equalTo("Bearer " + TOKEN))
            .willReturn(okJson(POLICIES)));
    grafana.stubFor(get(urlEqualTo(BASE + "/api/v2/status")).willReturn(okJson(STATUS)));

    RouteTree routes = client().routes();

    assertThat(routes.file())
        .isEqualTo("Grafana http://127.0.0.1:" + grafana.getPort() + " notification policies");
    assertThat(
            routes.receivers(
                Map.of("team", "payments", "severity", "page", "grafana_folder", "payments")))
        .containsExactly("payments pager", "firedrill webhook");
    assertThat(routes.receivers(Map.of("team", "search", "grafana_folder", "search")))
        .containsExactly("grafana-default-email");
    grafana.verify(0, getRequestedFor(urlEqualTo(BASE + "/api/v2/status")));
  }

  @Test
  void withoutTheProvisioningPermissionTheStatusConfigIsRead() throws Exception {
    grafana.stubFor(
        get(urlEqualTo("/api/v1/provisioning/policies"))
            .willReturn(
                com.github.tomakehurst.wiremock.client.WireMock.aResponse()
                    .withStatus(403)
                    .withBody("{\"message\":\"permissions needed: alert.provisioning:read\"}")));
    grafana.stubFor(get(urlEqualTo(BASE + "/api/v2/status")).willReturn(okJson(STATUS)));

    RouteTree routes = client().routes();

    assertThat(routes.file()).endsWith(BASE + " config");
    assertThat(routes.receivers(Map.of("team", "payments", "severity", "critical")))
        .containsExactly("firedrill webhook");
  }
}
