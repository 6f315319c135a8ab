package dev.firedrill.kubernetes.chaosmesh;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.Node;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.FaultKind;
import dev.firedrill.fault.FaultRefusedException;
import dev.firedrill.kubernetes.select.PodBlastRadius;
import dev.firedrill.time.Durations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * chaos-mesh: creates one Chaos Mesh object from a manifest file ({@code manifest: path}) or inline
 * ({@code object:}), waits for Chaos Mesh to inject it, and deletes it in the rollback. The journal
 * keeps the object inline, so {@code cleanup} needs no file.
 */
public final class ChaosMeshKind implements FaultKind<ChaosMeshSpec> {

  static final String NAME = "chaos-mesh";

  static final Duration DEFAULT_INJECT_TIMEOUT = Duration.ofSeconds(60);
  static final Duration DEFAULT_DELETE_TIMEOUT = Duration.ofSeconds(60);

  private static final YAMLMapper YAML = new YAMLMapper();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Class<ChaosMeshSpec> specType() {
    return ChaosMeshSpec.class;
  }

  @Override
  public List<String> keys() {
    return List.of("manifest", "object", "inject_timeout", "delete_timeout");
  }

  @Override
  public ChaosMeshSpec read(Node entry, Optional<Duration> ttl) {
    Node manifest = entry.get("manifest");
    Node inline = entry.get("object");
    Duration injectTimeout = entry.get("inject_timeout").duration(true);
    Duration deleteTimeout = entry.get("delete_timeout").duration(true);
    JsonNode object = null;
    ChaosObjectReader.Where where = null;
    if (manifest.present() && inline.present()) {
      inline.problem("manifest and object both name the Chaos Mesh object; keep one");
    } else if (inline.present()) {
      object = inline.tree();
      where = (pointer, message) -> at(inline, pointer).problem(message);
    } else if (manifest.present()) {
      String path = manifest.text();
      object = path == null ? null : load(manifest, path);
      where =
          (pointer, message) ->
              manifest.problem(
                  "the manifest "
                      + path
                      + (pointer.isEmpty() ? "" : ", at " + pointer)
                      + ": "
                      + message);
    } else {
      manifest.required(
          "chaos-mesh needs manifest: a file holding one Chaos Mesh object, or object: the object"
              + " inline");
    }
    ChaosObjectReader.Parts parts =
        object == null || where == null ? null : ChaosObjectReader.read(object, where);
    if (parts == null || !entry.clean()) {
      return null;
    }
    return new ChaosMeshSpec(
        (ObjectNode) object,
        parts.kind().kind(),
        parts.namespace(),
        parts.action(),
        parts.selector(),
        parts.selection(),
        parts.duration(),
        injectTimeout == null ? DEFAULT_INJECT_TIMEOUT : injectTimeout,
        deleteTimeout == null ? DEFAULT_DELETE_TIMEOUT : deleteTimeout,
        ttl);
  }

  /** The node at {@code pointer} (object keys and list indexes) below {@code node}. */
  private static Node at(Node node, String pointer) {
    Node at = node;
    for (String segment : pointer.split("/")) {
      if (!segment.isEmpty()) {
        at = at.get(segment);
      }
    }
    return at;
  }

  private static JsonNode load(Node manifest, String path) {
    try {
      return YAML.readTree(Files.readString(Path.of(path)));
    } catch (NoSuchFileException e) {
      manifest.problem("cannot read the manifest " + path + ": no such file");
    } catch (JsonProcessingException e) {
      manifest.problem(
          "the manifest "
              + path
              + " is not YAML or JSON"
              + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")")
              + ": "
              + e.getOriginalMessage().lines().findFirst().orElse(""));
    } catch (IOException | RuntimeException e) {
      manifest.problem("cannot read the manifest " + path + ": " + e.getClass().getSimpleName());
    }
    return null;
  }

  @Override
  public void write(ChaosMeshSpec spec, ObjectNode node) {
    node.set("object", spec.object());
    node.put("inject_timeout", Durations.format(spec.injectTimeout()));
    node.put("delete_timeout", Durations.format(spec.deleteTimeout()));
  }

  /**
   * Refuses an object without {@code spec.duration} or with one longer than the ttl, and selectors
   * outside the blast radius's namespaces or larger than its limits allow.
   */
  @Override
  public void check(ChaosMeshSpec spec, BlastRadius blast) throws FaultRefusedException {
    String what = spec.chaosKind() + " " + spec.namespace();
    Duration ttl = spec.ttl().orElse(Duration.ZERO);
    if (spec.duration().isEmpty()) {
      throw new FaultRefusedException(
          NAME
              + ": "
              + what
              + " has no spec.duration; firedrill requires one no longer than the fault's ttl "
              + Durations.format(ttl)
              + ", so Chaos Mesh ends the fault by itself (it counts the duration from the object's"
              + " creation)");
    }
    if (spec.duration().get().compareTo(ttl) > 0) {
      throw new FaultRefusedException(
          NAME
              + ": "
              + what
              + " has spec.duration "
              + Durations.format(spec.duration().get())
              + ", longer than the fault's ttl "
              + Durations.format(ttl)
              + "; expected a duration of at most "
              + Durations.format(ttl)
              + " (Chaos Mesh counts it from the object's creation)");
    }
    PodBlastRadius radius = new PodBlastRadius(NAME, blast);
    for (String namespace : spec.selector().namespaces()) {
      radius.checkStatic(namespace, spec.selection());
    }
  }

  @Override
  public Optional<String> words(ChaosMeshSpec spec) {
    return Optional.of(
        spec.chaosKind()
            + " "
            + spec.action()
            + " on "
            + spec.selection().text()
            + " of the pods "
            + spec.selector().text()
            + spec.duration().map(d -> " for " + Durations.format(d)).orElse(""));
  }

  @Override
  public Fault create(ChaosMeshSpec spec, FaultContext context, int index) {
    return new ChaosMeshFault(spec, context, index);
  }

  @Override
  public Fault restore(ChaosMeshSpec spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    if (!(state.get("index") instanceof Number index)) {
      throw new FaultException("chaos-mesh: the journal's state has no index");
    }
    ChaosMeshFault fault = new ChaosMeshFault(spec, context, index.intValue());
    fault.restoreState(state);
    return fault;
  }
}
