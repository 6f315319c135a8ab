package dev.firedrill.kubernetes.select;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.ExperimentException;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.experiment.FaultSpec;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PodSelectorReaderTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the reader gives back, as a spec so the loader's entry reader can return it. */
  record Read(PodSelector selector, Selection selection) implements FaultSpec {
    @Override
    public String kind() {
      return "test";
    }

    @Override
    public Optional<java.time.Duration> ttl() {
      return Optional.empty();
    }

    @Override
    public String target() {
      return selector.namespace();
    }

    @Override
    public String targetName() {
      return selector.namespace();
    }
  }

  static Read read(String json) throws Exception {
    JsonNode entry = JSON.readTree(json);
    return (Read)
        ExperimentLoader.fault(
            "entry",
            entry,
            node -> {
              PodSelector selector = PodSelectorReader.selector(node, "pod-delete");
              Selection selection = PodSelectorReader.selection(node);
              node.rejectUnknownKeys(null);
              return selector == null || selection == null ? null : new Read(selector, selection);
            });
  }

  private static Pod pod(String name, Map<String, String> labels, String node) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("shop")
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .withNodeName(node)
        .endSpec()
        .build();
  }

  @Test
  void readsLabelsSetBasedExpressionsAndAFieldSelector() throws Exception {
    Read read =
        read(
            "{\"namespace\":\"shop\",\"selector\":{\"labels\":{\"app\":\"web\"},"
                + "\"expressions\":[{\"key\":\"tier\",\"operator\":\"In\",\"values\":[\"front\",\"edge\"]},"
                + "{\"key\":\"canary\",\"operator\":\"DoesNotExist\"}]},"
                + "\"field_selector\":\"spec.nodeName=node-1\",\"mode\":\"fixed-percent\",\"value\":34}");
    PodSelector selector = read.selector();
    assertThat(selector.labelText()).isEqualTo("app=web,tier in (front,edge),!canary");
    assertThat(selector.fieldText()).isEqualTo("spec.nodeName=node-1");
    assertThat(read.selection()).isEqualTo(new Selection(SelectionMode.FIXED_PERCENT, 34));
    assertThat(selector.matches(pod("a", Map.of("app", "web", "tier", "front"), "node-1")))
        .isTrue();
    assertThat(selector.matches(pod("b", Map.of("app", "web", "tier", "back"), "node-1")))
        .isFalse();
    assertThat(
            selector.matches(
                pod("c", Map.of("app", "web", "tier", "front", "canary", "y"), "node-1")))
        .isFalse();
    assertThat(selector.matches(pod("d", Map.of("app", "web", "tier", "edge"), "node-2")))
        .isFalse();
  }

  @Test
  void writesWhatItReads() throws Exception {
    Read read =
        read(
            "{\"namespace\":\"shop\",\"selector\":{\"labels\":{\"app\":\"web\"},"
                + "\"expressions\":[{\"key\":\"tier\",\"operator\":\"notin\",\"values\":[\"db\"]}]},"
                + "\"mode\":\"fixed\",\"value\":2}");
    ObjectNode written = JSON.createObjectNode();
    PodSelectorReader.write(read.selector(), read.selection(), written);
    assertThat(read(written.toString())).isEqualTo(read);
    assertThat(written.toString())
        .isEqualTo(
            "{\"namespace\":\"shop\",\"selector\":{\"labels\":{\"app\":\"web\"},\"expressions\":"
                + "[{\"key\":\"tier\",\"operator\":\"NotIn\",\"values\":[\"db\"]}]},"
                + "\"mode\":\"fixed\",\"value\":2}");
  }

  @Test
  void wrongEntriesAreProblemsNamingTheirPointer() {
    assertThatThrownBy(
            () ->
                read(
                    "{\"namespace\":\"Shop\",\"selector\":{\"labels\":{\"app\":\"web\"}},"
                        + "\"mode\":\"fixed-percent\",\"value\":\"34%\"}"))
        .isInstanceOf(ExperimentException.class)
        .hasMessageContaining(
            "/namespace: expected a namespace name (RFC 1123 label), such as shop, got \"Shop\"")
        .hasMessageContaining(
            "/value: expected a whole percentage from 1 to 100, as Chaos Mesh takes it, such as 34,"
                + " got \"34%\"");
    assertThatThrownBy(
            () ->
                read(
                    "{\"namespace\":\"shop\",\"selector\":{\"expressions\":"
                        + "[{\"key\":\"tier\",\"operator\":\"In\"}]}}"))
        .hasMessageContaining(
            "/selector/expressions/0/values: operator In needs values: a non-empty list");
    assertThatThrownBy(() -> read("{\"namespace\":\"shop\",\"selector\":{}}"))
        .hasMessageContaining(
            "/selector: expected labels or expressions: an empty selector matches every pod in the"
                + " namespace");
    assertThatThrownBy(
            () ->
                read(
                    "{\"namespace\":\"shop\",\"selector\":{\"labels\":{\"app\":\"web\"}},"
                        + "\"field_selector\":\"spec.host=a\"}"))
        .hasMessageContaining("/field_selector: unknown pod field spec.host");
  }
}
