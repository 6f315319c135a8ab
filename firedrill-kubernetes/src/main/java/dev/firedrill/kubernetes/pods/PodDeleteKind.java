package dev.firedrill.kubernetes.pods;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.Node;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.FaultKind;
import dev.firedrill.fault.FaultRefusedException;
import dev.firedrill.kubernetes.select.Chooser;
import dev.firedrill.kubernetes.select.PodBlastRadius;
import dev.firedrill.kubernetes.select.PodSelector;
import dev.firedrill.kubernetes.select.PodSelectorReader;
import dev.firedrill.kubernetes.select.Selection;
import dev.firedrill.time.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** pod-delete: deletes or evicts pods chosen from a selector, inside the pod blast radius. */
public final class PodDeleteKind implements FaultKind<PodDeleteSpec> {

  static final String NAME = "pod-delete";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Class<PodDeleteSpec> specType() {
    return PodDeleteSpec.class;
  }

  @Override
  public List<String> keys() {
    List<String> keys = new ArrayList<>(PodSelectorReader.KEYS);
    keys.addAll(List.of("grace_period", "via", "interval"));
    return List.copyOf(keys);
  }

  @Override
  public PodDeleteSpec read(Node entry, Optional<Duration> ttl) {
    PodSelector selector = PodSelectorReader.selector(entry, NAME);
    Selection selection = PodSelectorReader.selection(entry);
    Duration grace = entry.get("grace_period").duration(false);
    String via =
        entry
            .get("via")
            .choice("via", List.of("eviction", "delete"), text -> text.toLowerCase(Locale.ROOT));
    Duration interval = entry.get("interval").duration(true);
    if (grace != null && grace.toMillis() % 1000 != 0) {
      entry
          .get("grace_period")
          .problem("expected whole seconds, as the API takes them, such as 0s or 30s");
    }
    if (selector == null || selection == null || !entry.clean()) {
      return null;
    }
    return new PodDeleteSpec(
        selector,
        selection,
        Optional.ofNullable(grace),
        via == null
            ? PodDeleteSpec.Via.DELETE
            : PodDeleteSpec.Via.valueOf(via.toUpperCase(Locale.ROOT)),
        Optional.ofNullable(interval),
        ttl);
  }

  @Override
  public void write(PodDeleteSpec spec, ObjectNode node) {
    PodSelectorReader.write(spec.selector(), spec.selection(), node);
    spec.gracePeriod().ifPresent(grace -> node.put("grace_period", Durations.format(grace)));
    node.put("via", spec.via().text());
    spec.interval().ifPresent(interval -> node.put("interval", Durations.format(interval)));
  }

  @Override
  public void check(PodDeleteSpec spec, BlastRadius blast) throws FaultRefusedException {
    new PodBlastRadius(NAME, blast).checkStatic(spec.selector().namespace(), spec.selection());
  }

  @Override
  public Optional<String> words(PodDeleteSpec spec) {
    return Optional.of(
        (spec.via() == PodDeleteSpec.Via.EVICTION ? "evict " : "delete ")
            + spec.selection().text()
            + " of the running "
            + spec.target()
            + spec.interval().map(i -> ", every " + Durations.format(i)).orElse(""));
  }

  @Override
  public Fault create(PodDeleteSpec spec, FaultContext context, int index) {
    return new PodDeleteFault(spec, context, Chooser.newSeed(), List.of());
  }

  @Override
  public Fault restore(PodDeleteSpec spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    return PodDeleteFault.restore(spec, context, state);
  }
}
