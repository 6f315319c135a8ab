package dev.firedrill.fault;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.Node;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything firedrill knows about one fault kind, in one place: its name and keys in the
 * experiment file, how its entry is read and written back (the journal keeps it in the file's
 * words), what the file alone makes it refuse, and the {@link Fault} it becomes. {@link FaultKinds}
 * finds the kinds with {@link java.util.ServiceLoader}: a kind is listed in {@code
 * META-INF/services/dev.firedrill.fault.FaultKind} of its jar, so a family with heavy dependencies
 * can live in a module of its own.
 *
 * <p>A provider needs a public constructor without arguments. Several kinds may share one spec
 * record: the http-* kinds are all {@link FaultSpec.HttpToxic}, told apart by its effect.
 *
 * @param <S> the record of this kind's specs
 */
public interface FaultKind<S extends FaultSpec> {

  /**
   * The kind as files, journals and messages write it, such as {@code process-kill}; its specs'
   * kind().
   */
  String name();

  /** The record of its specs. */
  Class<S> specType();

  /**
   * The keys of its entry in {@code method.faults} besides {@code kind} and {@code ttl} (every kind
   * has those), in the order messages list them: a key of another kind is refused naming its kinds.
   */
  List<String> keys();

  /**
   * Reads the entry's own keys (kind and ttl are read); wrong values are problems on the entry's
   * nodes, and then it returns null. Its unknown keys are reported after it returns.
   */
  S read(Node entry, Optional<Duration> ttl);

  /**
   * Why {@code key}, one of other kinds' keys, is not one of its own; {@code owners} says whose it
   * is ("latency applies to http-latency, not http-error").
   */
  default String explainUnknownKey(String key, String owners) {
    return owners;
  }

  /**
   * Puts the spec's own keys, as {@link #read} reads them, in {@code node}: after {@code kind},
   * before {@code ttl}. Cleanup rebuilds the spec from it with {@link #read}.
   */
  void write(S spec, ObjectNode node);

  /**
   * What the file alone makes it refuse, against the blast radius, after the ttl checks every kind
   * shares ({@link FaultChecks}); no process table, no network.
   */
  default void check(S spec, BlastRadius blast) throws FaultRefusedException {}

  /**
   * The fault in words for {@code plan}, such as {@code 20% of calls to payments answered 503},
   * when it has them.
   */
  default Optional<String> words(S spec) {
    return Optional.empty();
  }

  /**
   * A fresh fault; {@code index}, its place in {@code method.faults}, names what it leaves behind.
   */
  Fault create(S spec, FaultContext context, int index);

  /** Rebuilds a fault from the {@link Fault#state()} a journal recorded, so it can be reverted. */
  Fault restore(S spec, FaultContext context, Map<String, Object> state) throws FaultException;
}
