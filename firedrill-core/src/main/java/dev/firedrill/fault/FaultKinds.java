package dev.firedrill.fault;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.ExperimentException;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.FaultSpecReader;
import dev.firedrill.experiment.Node;
import dev.firedrill.time.Durations;
import dev.firedrill.yaml.NearestName;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The fault kinds there are, by name: the one place that goes from a spec, or a name in a file, to
 * its {@link FaultKind}. The experiment loader reads {@code method.faults} through it (it is the
 * {@link FaultSpecReader} service); the journal, the plan and the faults themselves go through it
 * too.
 */
public final class FaultKinds implements FaultSpecReader {

  /** The kinds on the class path, found once. */
  private static final class Installed {
    static final FaultKinds KINDS = new FaultKinds();
  }

  private final Map<String, FaultKind<?>> byName = new LinkedHashMap<>();

  /**
   * Every kind's keys, for an entry whose kind is unknown: only keys no kind has are unknown there.
   */
  private final Set<String> allKeys = new LinkedHashSet<>();

  private final List<String> names;

  /** "process-kill, cpu-burn or exporter-down", for an entry without a kind. */
  private final String expected;

  /**
   * The kinds listed in {@code META-INF/services/dev.firedrill.fault.FaultKind}, in the order
   * listed.
   */
  public FaultKinds() {
    this(
        ServiceLoader.load(FaultKind.class, FaultKinds.class.getClassLoader()).stream()
            .<FaultKind<?>>map(ServiceLoader.Provider::get)
            .toList());
  }

  /** {@code kinds}, in the order messages list them. */
  public FaultKinds(List<? extends FaultKind<?>> kinds) {
    for (FaultKind<?> kind : kinds) {
      if (byName.putIfAbsent(kind.name(), kind) != null) {
        throw new IllegalStateException(
            "two fault kinds are named "
                + kind.name()
                + ": "
                + byName.get(kind.name()).getClass().getName()
                + " and "
                + kind.getClass().getName());
      }
      allKeys.addAll(kind.keys());
    }
    if (byName.isEmpty()) {
      throw new IllegalStateException(
          "no fault kinds: expected them listed in META-INF/services/" + FaultKind.class.getName());
    }
    names = List.copyOf(byName.keySet());
    int last = names.size() - 1;
    expected =
        last == 0
            ? names.get(0)
            : String.join(", ", names.subList(0, last)) + " or " + names.get(last);
  }

  /** The kinds on the class path. */
  public static FaultKinds installed() {
    return Installed.KINDS;
  }

  /** The names of the kinds, in the order messages list them. */
  public List<String> names() {
    return names;
  }

  /** The kinds, in the order messages list them. */
  List<FaultKind<?>> kinds() {
    return List.copyOf(byName.values());
  }

  /**
   * The kind named {@code name}; an unknown name is a mistake in code, since files are checked when
   * read.
   */
  public FaultKind<?> kind(String name) {
    FaultKind<?> kind = byName.get(name);
    if (kind == null) {
      throw new IllegalArgumentException(
          "unknown fault kind \""
              + name
              + "\"; "
              + NearestName.suggest(name, names, "expected one of: "));
    }
    return kind;
  }

  @Override
  public FaultSpec read(Node entry) {
    String name =
        entry
            .get("kind")
            .required("expected a fault kind: " + expected)
            .choice("fault kind", names, UnaryOperator.identity());
    Optional<Duration> ttl = Optional.ofNullable(entry.get("ttl").duration(true));
    if (name == null) {
      allKeys.forEach(entry::claim);
      entry.rejectUnknownKeys(null);
      return null;
    }
    FaultKind<?> kind = byName.get(name);
    FaultSpec spec = kind.read(entry, ttl);
    entry.rejectUnknownKeys(
        key -> {
          String owners = elsewhere(key, name);
          return owners == null ? null : kind.explainUnknownKey(key, owners);
        });
    return entry.clean() ? spec : null;
  }

  /**
   * "latency applies to http-latency, not http-error" for a key that belongs to other kinds; null
   * for none.
   */
  private String elsewhere(String key, String name) {
    List<String> owners =
        byName.values().stream()
            .filter(kind -> !kind.name().equals(name) && kind.keys().contains(key))
            .map(FaultKind::name)
            .toList();
    return owners.isEmpty()
        ? null
        : key + " applies to " + String.join(", ", owners) + ", not " + name;
  }

  /** The spec as the journal keeps it: the experiment file's words, kind first and ttl last. */
  public ObjectNode writeJournal(FaultSpec spec) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("kind", spec.kind());
    bound(spec).write(node);
    spec.ttl().ifPresent(ttl -> node.put("ttl", Durations.format(ttl)));
    return node;
  }

  /**
   * Rebuilds a spec from {@link #writeJournal}'s JSON, read as the file's entry was, with every
   * check. Throws {@link IllegalArgumentException} naming what is wrong with it.
   */
  public FaultSpec readJournal(JsonNode node) {
    if (!node.isObject()) {
      throw new IllegalArgumentException(
          "expected the fault's spec, a mapping with its kind, got " + node.getNodeType());
    }
    ObjectNode entry = node.deepCopy();
    // Journals written before shares were fractions say percent: a bare number from 0 to 100.
    if (!entry.has("share") && entry.path("percent").isNumber()) {
      entry.put("share", entry.remove("percent").asDouble() / 100);
    }
    try {
      return ExperimentLoader.fault("spec", entry, this);
    } catch (ExperimentException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** The refusals of the spec's kind (the ttl checks come first, in {@link FaultChecks}). */
  public void check(FaultSpec spec, BlastRadius blast) throws FaultRefusedException {
    bound(spec).check(blast);
  }

  /** The fault in words for {@code plan}, when its kind has them. */
  public Optional<String> words(FaultSpec spec) {
    return bound(spec).words();
  }

  /** A fresh fault; {@code index} is its place in {@code method.faults}. */
  public Fault create(FaultSpec spec, FaultContext context, int index) {
    return bound(spec).create(context, index);
  }

  /** Rebuilds a fault from the {@link Fault#state()} a journal recorded. */
  public Fault restore(FaultSpec spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    if (state == null) {
      throw new FaultException(
          spec.kind() + ": no recorded state; expected the map the journal wrote");
    }
    return bound(spec).restore(context, state);
  }

  private Bound<?> bound(FaultSpec spec) {
    return bind(kind(spec.kind()), spec);
  }

  /**
   * A kind whose spec record is not the spec's is a mistake in the kind: Class.cast says so at
   * once.
   */
  private static <S extends FaultSpec> Bound<S> bind(FaultKind<S> kind, FaultSpec spec) {
    return new Bound<>(kind, kind.specType().cast(spec));
  }

  /** A spec with its kind, typed together, so that no cast is unchecked. */
  private record Bound<S extends FaultSpec>(FaultKind<S> kind, S spec) {
    void write(ObjectNode node) {
      kind.write(spec, node);
    }

    void check(BlastRadius blast) throws FaultRefusedException {
      kind.check(spec, blast);
    }

    Optional<String> words() {
      return kind.words(spec);
    }

    Fault create(FaultContext context, int index) {
      return kind.create(spec, context, index);
    }

    Fault restore(FaultContext context, Map<String, Object> state) throws FaultException {
      return kind.restore(spec, context, state);
    }
  }
}
