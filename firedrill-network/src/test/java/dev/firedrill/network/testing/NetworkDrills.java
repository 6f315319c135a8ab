package dev.firedrill.network.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.FaultKinds;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Specs read the way the experiment file's entries are (through the installed kinds), faults built
 * and rebuilt the way the engine, cleanup and the watchdog do.
 */
public final class NetworkDrills {

  private static final ObjectMapper JSON = new ObjectMapper();

  private NetworkDrills() {}

  /** The entry {@code fields} (kind included) read as a file's {@code method.faults} entry is. */
  public static FaultSpec spec(Map<String, Object> fields) {
    JsonNode node = JSON.valueToTree(fields);
    return FaultKinds.installed().readJournal(node);
  }

  public static BlastRadius blast(boolean allowHostNetwork) {
    return new BlastRadius(
        1.0,
        Duration.ofMinutes(10),
        BlastRadius.DEFAULT_BUDGET_CEILING,
        1,
        1,
        List.of(),
        Optional.empty(),
        Optional.empty(),
        allowHostNetwork);
  }

  /** A context with a one-second method, so short ttls pass the ttl checks. */
  public static FaultContext context(BlastRadius blast) {
    return FaultContext.onThisHost("netdrill", blast, Duration.ofSeconds(1));
  }

  public static Fault create(Map<String, Object> fields) {
    return create(fields, false);
  }

  /** As {@link #create(Map)}, with {@code blast_radius.allow_host_network} as given. */
  public static Fault create(Map<String, Object> fields, boolean allowHostNetwork) {
    return FaultKinds.installed().create(spec(fields), context(blast(allowHostNetwork)), 0);
  }

  /**
   * The fault as cleanup and the watchdog rebuild it: the spec through the journal's JSON and the
   * recorded state.
   */
  public static Fault restored(Fault fault) throws FaultException {
    return restored(fault, fault.state());
  }

  /** As {@link #restored(Fault)}, from {@code state}: the one journaled before the injection. */
  public static Fault restored(Fault fault, Map<String, Object> state) throws FaultException {
    FaultKinds kinds = FaultKinds.installed();
    FaultSpec spec = kinds.readJournal(kinds.writeJournal(fault.spec()));
    Map<String, Object> read =
        JSON.convertValue(
            JSON.valueToTree(state),
            new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() {});
    return kinds.restore(spec, context(blast(false)), read);
  }
}
