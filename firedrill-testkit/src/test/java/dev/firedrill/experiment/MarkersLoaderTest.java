package dev.firedrill.experiment;

import static dev.firedrill.testing.MinimalExperiment.load;
import static dev.firedrill.testing.MinimalExperiment.problems;
import static dev.firedrill.testing.MinimalExperiment.with;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The {@code markers.grafana} section: what loads, and each refusal's exact line, the section
 * appended to {@link dev.firedrill.testing.MinimalExperiment} from line 26.
 */
class MarkersLoaderTest {

  @Test
  void aPanelAnnotationWithATokenFile() {
    Experiment experiment =
        load(
            with(
                """
        markers:
          grafana:
            url: http://127.0.0.1:3000
            dashboard_uid: firedrill-lab
            panel_id: 4
            bearer_token_file: /run/secrets/grafana
            timeout: 3s
        """));

    assertThat(experiment.markers().grafana())
        .contains(
            new GrafanaTarget(
                URI.create("http://127.0.0.1:3000"),
                Optional.of("firedrill-lab"),
                Optional.of(4),
                new TokenSource.FromFile(Path.of("/run/secrets/grafana")),
                Duration.ofSeconds(3)));
  }

  @Test
  void anOrganizationAnnotationWithDefaults() {
    Experiment experiment =
        load(
            with(
                """
        markers:
          grafana:
            url: http://127.0.0.1:3000
            bearer_token_env: GRAFANA_TOKEN
        """));

    assertThat(experiment.markers().grafana())
        .contains(
            new GrafanaTarget(
                URI.create("http://127.0.0.1:3000"),
                Optional.empty(),
                Optional.empty(),
                new TokenSource.FromEnv("GRAFANA_TOKEN"),
                GrafanaTarget.DEFAULT_TIMEOUT));
  }

  @Test
  void anOrganizationIdIsKeptForTheHeaderAndMustBePositive() {
    Experiment experiment =
        load(
            with(
                """
        markers:
          grafana:
            url: http://127.0.0.1:3000
            org_id: 2
        """));
    assertThat(experiment.markers().grafana().orElseThrow().orgId()).contains(2L);

    assertThat(
            problems(
                with(
                    """
        markers:
          grafana:
            url: http://127.0.0.1:3000
            org_id: 0
        """)))
        .singleElement()
        .asString()
        .startsWith("exp.yaml: /markers/grafana/org_id: ")
        .endsWith("(line 29, column 5)");
  }

  @Test
  void aPanelNeedsItsDashboard() {
    assertThat(
            problems(
                with(
                    """
        markers:
          grafana:
            url: http://127.0.0.1:3000
            panel_id: 4
        """)))
        .containsExactly(
            "exp.yaml: /markers/grafana/panel_id: expected dashboard_uid beside panel_id:"
                + " a panel annotation belongs to a dashboard (line 29, column 5)");
  }

  @Test
  void aTokenInTheFileIsRefusedWithoutShowingIt() {
    List<String> problems =
        problems(
            with(
                """
        markers:
          grafana:
            url: http://127.0.0.1:3000
            token: glsa_s3cr3t-value
        """));

    assertThat(problems)
        .containsExactly(
            "exp.yaml: /markers/grafana/token: secrets are refused in an experiment"
                + " file; use bearer_token_env, bearer_token_file or basic_auth (username with password_env or password_file)"
                + " (line 29, column 5)");
    assertThat(String.join("\n", problems)).doesNotContain("s3cr3t");
  }

  @Test
  void anUnknownKeyNamesTheNearestOne() {
    assertThat(
            problems(
                with(
                    """
        markers:
          grafana:
            url: http://127.0.0.1:3000
            dashboard_id: firedrill-lab
        """)))
        .containsExactly(
            "exp.yaml: /markers/grafana/dashboard_id: unknown key; did you mean \"dashboard_uid\"? (line 29, column 5)");
  }
}
