package dev.firedrill.kubernetes.pods;

import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultChecks;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.TtlEnforcer;
import dev.firedrill.fault.Verification;
import dev.firedrill.kubernetes.access.ClientText;
import dev.firedrill.kubernetes.access.KubernetesAccess;
import dev.firedrill.kubernetes.select.Chooser;
import dev.firedrill.kubernetes.select.PodBlastRadius;
import dev.firedrill.kubernetes.select.PodSelector;
import dev.firedrill.time.Durations;
import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.PodResource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * Deletes or evicts pods chosen with a seeded {@link Chooser} from a selector's Running pods, once
 * at injection or every interval for the method's duration, inside the pod blast radius. Nothing is
 * left to undo: the owners replace the pods. The revert waits, up to the hypothesis's recovery
 * time, for what verification checks: every victim's UID gone and each owner workload rolled out
 * (kubectl's rollout-complete test). A victim still there is a fault left in place; owners that do
 * not roll out in time are a system that did not recover (the drill deviates, no rollback failed).
 */
final class PodDeleteFault implements Fault {

  /** How long revert waits for the interval rounds to stop: they only ever wait on the clock. */
  private static final Duration STOP_ROUNDS = Duration.ofSeconds(5);

  private static final Duration POLL = Duration.ofMillis(100);

  private final PodDeleteSpec spec;
  private final FaultContext context;
  private final long seed;
  private final Chooser chooser;
  private final PodBlastRadius radius;
  private final KubernetesAccess access;
  private final List<Victim> victims = new CopyOnWriteArrayList<>();
  private final List<String> events = new CopyOnWriteArrayList<>();

  /**
   * The selector's Ready pods at injection: a workload's status lags behind a deletion, so recovery
   * also needs as many Ready pods again, none of them a victim.
   */
  private int readyBefore;

  /**
   * Rebuilt from the state journaled before the injection: a pod may have been deleted before the
   * kill without the journal learning which, so "no pod was deleted" would claim too much.
   */
  private boolean fromStateBeforeInjection;

  private volatile boolean stopped;
  private Thread rounds;
  private boolean waited;

  PodDeleteFault(PodDeleteSpec spec, FaultContext context, long seed, List<Victim> recorded) {
    this.spec = spec;
    this.context = context;
    this.seed = seed;
    this.chooser = new Chooser(seed);
    this.radius = new PodBlastRadius(PodDeleteKind.NAME, context.blastRadius());
    this.access = new KubernetesAccess(context.environment());
    this.victims.addAll(recorded);
  }

  static PodDeleteFault restore(PodDeleteSpec spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    if (!(state.get("seed") instanceof Number seed)
        || !(state.get("victims") instanceof List<?> list)) {
      throw new FaultException("pod-delete: the journal's state has no seed and victims");
    }
    List<Victim> victims = new ArrayList<>();
    for (Object item : list) {
      if (!(item instanceof Map<?, ?> map)) {
        throw new FaultException("pod-delete: a victim in the journal's state is not a mapping");
      }
      victims.add(Victim.fromState(spec.selector().namespace(), map));
    }
    PodDeleteFault fault = new PodDeleteFault(spec, context, seed.longValue(), victims);
    if (state.get("ready_before") instanceof Number ready) {
      fault.readyBefore = ready.intValue();
    }
    fault.fromStateBeforeInjection = Boolean.TRUE.equals(state.get("injecting"));
    fault.waited = true; // cleanup after a crash checks once; the drill's recovery time is over
    return fault;
  }

  @Override
  public PodDeleteSpec spec() {
    return spec;
  }

  @Override
  public List<String> plan() throws FaultException {
    FaultChecks.check(spec, context.blastRadius(), context.methodDuration());
    PodSelector selector = spec.selector();
    List<String> lines = new ArrayList<>();
    if (context.resolve()) {
      try (KubernetesClient client = access.connect(context.kubernetesContext())) {
        List<Pod> candidates = candidates(client);
        int count = candidates.size();
        int worst = radius.checkLive(selector.text(), spec.selection(), count);
        int drawn = spec.selection().size(count, new Chooser(seed));
        radius.checkNotEmpty(selector.text(), spec.selection(), drawn, count);
        lines.add(
            "select "
                + spec.selection().text()
                + ": "
                + drawn
                + (drawn == worst ? "" : " (up to " + worst + ")")
                + " of "
                + count
                + " running pods matching "
                + selector.text()
                + "; the blast radius allows "
                + radius.allowed(count)
                + " ("
                + radius.limits()
                + ", rounded down)");
        lines.add(
            "candidates: "
                + candidates.stream().map(Pods::name).sorted().collect(Collectors.joining(", "))
                + "; chosen at injection with seed "
                + seed
                + " (kept in the journal)");
      } catch (KubernetesClientException e) {
        throw new FaultException(
            "pod-delete: cannot list " + selector.text() + ": " + ClientText.safe(e));
      }
      lines.add("cluster: " + access.describe(context.kubernetesContext()));
    } else {
      lines.add(
          "select "
              + spec.selection().text()
              + " of the running pods matching "
              + selector.text()
              + ", chosen at injection within "
              + radius.limits()
              + " (rounded down); plan --resolve chooses against the live pods");
    }
    lines.add(
        spec.via() == PodDeleteSpec.Via.EVICTION
            ? "via eviction: the Eviction API, so PodDisruptionBudgets hold; a pod they protect (429)"
                + " is skipped and journaled"
            : "via delete: a plain DELETE, which PodDisruptionBudgets do not stop");
    lines.add(
        spec.gracePeriod()
            .map(
                g ->
                    "grace period "
                        + Durations.format(g)
                        + (g.isZero()
                            ? ": preStop hooks are skipped and the pod dies at once"
                            : ""))
            .orElse(
                "grace period: each pod's own, so preStop hooks run (Chaos Mesh's pod-kill defaults"
                    + " to 0, which skips them)"));
    spec.interval()
        .ifPresent(
            i ->
                lines.add(
                    "every "
                        + Durations.format(i)
                        + " for the method's "
                        + Durations.format(context.methodDuration())
                        + ", keeping the blast radius for the whole run: a pod not ready or"
                        + " terminating counts as disrupted, a round deletes only what the limit"
                        + " still allows and is skipped (journaled) when that is none"));
    lines.add(
        "rollback: nothing to undo, the owners replace the pods; verified: every victim's UID gone,"
            + " each owner rolled out (kubectl's rollout-complete test), within "
            + Durations.format(context.recovery()));
    return lines;
  }

  @Override
  public void inject() throws FaultException {
    try (KubernetesClient client = access.connect(context.kubernetesContext())) {
      List<Pod> candidates = candidates(client);
      int count = candidates.size();
      radius.checkLive(spec.selector().text(), spec.selection(), count);
      int size = spec.selection().size(count, chooser);
      radius.checkNotEmpty(spec.selector().text(), spec.selection(), size, count);
      List<Pod> chosen = chooser.pick(candidates, size, Pods::name);
      readyBefore = (int) candidates.stream().filter(Pods::ready).count();
      remove(client, chosen, 1);
      if (victims.isEmpty()) {
        throw new FaultException(
            "pod-delete: every chosen pod ("
                + chosen.stream().map(Pods::name).collect(Collectors.joining(", "))
                + ") is protected by a PodDisruptionBudget: nothing was evicted");
      }
      if (spec.interval().isPresent()) {
        startRounds(count);
      }
    } catch (KubernetesClientException e) {
      throw new FaultException("pod-delete: " + ClientText.safe(e));
    }
  }

  /** Running, not terminating, matching the whole selector (set-based terms applied here). */
  private List<Pod> candidates(KubernetesClient client) {
    return matching(client).stream().filter(Pods::candidate).toList();
  }

  private List<Pod> matching(KubernetesClient client) {
    PodSelector selector = spec.selector();
    return client
        .pods()
        .inNamespace(selector.namespace())
        .withLabels(selector.labels())
        .list()
        .getItems()
        .stream()
        .filter(selector::matches)
        .toList();
  }

  /** Removes each pod, journaling it as a victim first; a 429 to an eviction skips that pod. */
  private void remove(KubernetesClient client, List<Pod> pods, int round) throws FaultException {
    List<String> removed = new ArrayList<>();
    for (Pod pod : pods) {
      Victim victim =
          new Victim(Pods.name(pod), pod.getMetadata().getUid(), workload(client, pod), round);
      victims.add(victim);
      PodResource resource =
          client.pods().inNamespace(spec.selector().namespace()).withName(victim.name());
      if (spec.via() == PodDeleteSpec.Via.EVICTION) {
        if (!resource.evict(eviction(victim.name()))) {
          victims.remove(victim);
          events.add(
              "round "
                  + round
                  + ": skipped "
                  + victim.name()
                  + ": the eviction was refused (429), a PodDisruptionBudget protects it");
          continue;
        }
      } else if (spec.gracePeriod().isPresent()) {
        resource.withGracePeriod(spec.gracePeriod().get().toSeconds()).delete();
      } else {
        resource.delete();
      }
      removed.add(victim.name());
    }
    if (!removed.isEmpty()) {
      events.add(
          "round "
              + round
              + ": "
              + (spec.via() == PodDeleteSpec.Via.EVICTION ? "evicted " : "deleted ")
              + String.join(", ", removed));
    }
  }

  private io.fabric8.kubernetes.api.model.policy.v1.Eviction eviction(String name) {
    EvictionBuilder eviction =
        new EvictionBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(spec.selector().namespace())
            .endMetadata();
    spec.gracePeriod()
        .ifPresent(
            g ->
                eviction.withDeleteOptions(
                    new DeleteOptionsBuilder().withGracePeriodSeconds(g.toSeconds()).build()));
    return eviction.build();
  }

  /** The workload that replaces the pod: a ReplicaSet's Deployment, a StatefulSet, a DaemonSet. */
  private Optional<Rollout> workload(KubernetesClient client, Pod pod) {
    Optional<OwnerReference> owner = Pods.controller(pod);
    if (owner.isEmpty()) {
      return Optional.empty();
    }
    String namespace = spec.selector().namespace();
    String kind = owner.get().getKind();
    if ("ReplicaSet".equals(kind)) {
      ReplicaSet replicaSet =
          client.apps().replicaSets().inNamespace(namespace).withName(owner.get().getName()).get();
      Optional<OwnerReference> deployment =
          replicaSet == null || replicaSet.getMetadata().getOwnerReferences() == null
              ? Optional.empty()
              : replicaSet.getMetadata().getOwnerReferences().stream()
                  .filter(
                      o ->
                          "Deployment".equals(o.getKind())
                              && Boolean.TRUE.equals(o.getController()))
                  .findFirst();
      if (deployment.isPresent()) {
        return Optional.of(new Rollout(namespace, "Deployment", deployment.get().getName()));
      }
    }
    return List.of("ReplicaSet", "StatefulSet", "DaemonSet").contains(kind)
        ? Optional.of(new Rollout(namespace, kind, owner.get().getName()))
        : Optional.empty();
  }

  private void startRounds(int baseline) {
    long end = context.clock().nanoTime() + context.methodDuration().toNanos();
    Duration interval = spec.interval().get();
    rounds =
        new Thread(
            () -> {
              try (KubernetesClient client = access.connect(context.kubernetesContext())) {
                for (int round = 2; !stopped; round++) {
                  context.clock().sleep(interval);
                  if (stopped || context.clock().nanoTime() - end >= 0) {
                    return;
                  }
                  round(client, round, baseline);
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (FaultException e) {
                events.add("rounds stopped: " + e.getMessage());
              }
            },
            "pod-delete-rounds");
    rounds.setDaemon(true);
    rounds.start();
  }

  /**
   * One interval round: the limit over the pods of the injection, less the ones already disrupted
   * (not ready, terminating, or not replaced yet).
   */
  private void round(KubernetesClient client, int round, int baseline) {
    try {
      List<Pod> matching = matching(client);
      List<Pod> healthy = matching.stream().filter(p -> !Pods.disrupted(p)).toList();
      int disrupted = Math.max(0, baseline - healthy.size());
      int allowed = radius.allowed(baseline);
      int wanted = Math.min(spec.selection().size(healthy.size(), chooser), allowed - disrupted);
      if (wanted <= 0) {
        events.add(
            "round "
                + round
                + ": skipped, "
                + disrupted
                + " of "
                + baseline
                + " pods already disrupted (not ready, terminating or not replaced) and the blast"
                + " radius allows "
                + allowed);
        return;
      }
      remove(client, chooser.pick(healthy, wanted, Pods::name), round);
    } catch (KubernetesClientException | FaultException e) {
      events.add(
          "round "
              + round
              + ": failed: "
              + (e instanceof KubernetesClientException k ? ClientText.safe(k) : e.getMessage()));
    }
  }

  @Override
  public void revert() throws FaultException {
    stopRounds();
    if (waited) {
      return;
    }
    waited = true;
    long deadline = context.clock().nanoTime() + context.recovery().toNanos();
    try {
      while (!verify().recovered() && context.clock().nanoTime() - deadline < 0) {
        context.clock().sleep(POLL);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void stopRounds() {
    stopped = true;
    if (rounds == null) {
      return;
    }
    rounds.interrupt();
    try {
      rounds.join(STOP_ROUNDS.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public Verification verify() {
    if (victims.isEmpty() && fromStateBeforeInjection) {
      return Verification.reverted(
          "no victim was journaled (firedrill stopped while injecting it); a deleted pod leaves"
              + " nothing to undo, and its owner replaces it");
    }
    if (victims.isEmpty()) {
      return Verification.reverted("no pod was deleted" + eventsText());
    }
    try (KubernetesClient client = access.connect(context.kubernetesContext())) {
      String namespace = spec.selector().namespace();
      for (Victim victim : victims) {
        Pod pod = client.pods().inNamespace(namespace).withName(victim.name()).get();
        if (pod != null && victim.uid().equals(pod.getMetadata().getUid())) {
          return Verification.remaining(
              "pod "
                  + victim.name()
                  + " (uid "
                  + victim.uid()
                  + ") is still there"
                  + (Pods.ready(pod) ? " and Ready" : "")
                  + "; check with: "
                  + manualRevertCommand());
        }
      }
      Set<String> gone = victims.stream().map(Victim::uid).collect(Collectors.toSet());
      long ready =
          matching(client).stream()
              .filter(p -> !Pods.disrupted(p) && !gone.contains(p.getMetadata().getUid()))
              .count();
      if (ready < readyBefore) {
        return Verification.unrecovered(
            "not recovered within "
                + Durations.format(context.recovery())
                + ": "
                + ready
                + " of "
                + readyBefore
                + " pods matching "
                + spec.selector().text()
                + " Ready again; check with: "
                + manualRevertCommand());
      }
      List<String> done = new ArrayList<>();
      for (Rollout rollout : workloads()) {
        Optional<String> pending = rollout.pending(client);
        if (pending.isPresent()) {
          return Verification.unrecovered(
              "not recovered within "
                  + Durations.format(context.recovery())
                  + ": "
                  + pending.get()
                  + "; check with: "
                  + ClientText.shell(rollout.command(context.recovery())));
        }
        done.add(rollout.complete(client));
      }
      return Verification.reverted(
          "every victim is gone ("
              + victims.stream().map(Victim::name).collect(Collectors.joining(", "))
              + ")"
              + (done.isEmpty() ? "; no owner replaces them" : "; " + String.join("; ", done))
              + eventsText());
    } catch (FaultException e) {
      return Verification.remaining(e.getMessage());
    } catch (KubernetesClientException e) {
      return Verification.remaining("cannot read the cluster: " + ClientText.safe(e));
    }
  }

  private String eventsText() {
    return events.isEmpty() ? "" : " (" + String.join("; ", events) + ")";
  }

  private Set<Rollout> workloads() {
    Set<Rollout> workloads = new LinkedHashSet<>();
    victims.forEach(v -> v.workload().ifPresent(workloads::add));
    return workloads;
  }

  /** The commands a human runs, as argument lists: rollout status per owner, else the pods. */
  List<List<String>> manualCommands() {
    Set<Rollout> workloads = workloads();
    if (workloads.isEmpty()) {
      PodSelector selector = spec.selector();
      List<String> get =
          new ArrayList<>(
              List.of(
                  "kubectl",
                  "-n",
                  selector.namespace(),
                  "get",
                  "pods",
                  "-l",
                  selector.labelText()));
      return List.of(get);
    }
    return workloads.stream().map(w -> w.command(context.recovery())).toList();
  }

  @Override
  public String manualRevertCommand() {
    return manualCommands().stream().map(ClientText::shell).collect(Collectors.joining(" && "));
  }

  @Override
  public Map<String, Object> state() {
    Map<String, Object> state = new LinkedHashMap<>();
    state.put("seed", seed);
    state.put("ready_before", readyBefore);
    state.put("victims", victims.stream().map(Victim::state).toList());
    state.put("events", List.copyOf(events));
    return state;
  }

  /**
   * Before the injection: the seed, no victims yet. A deleted pod leaves nothing to undo, so
   * cleanup after a kill inside the injection has nothing to find and checks the selector's pods.
   */
  @Override
  public Optional<Map<String, Object>> stateBeforeInjection() {
    Map<String, Object> state = state();
    state.put("injecting", true);
    return Optional.of(state);
  }

  @Override
  public TtlEnforcer ttlEnforcer() {
    return TtlEnforcer.NONE;
  }

  @Override
  public List<String> selected() {
    return victims.stream().map(Victim::name).toList();
  }
}
