package dev.firedrill.kubernetes.chaosmesh;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultChecks;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.TtlEnforcer;
import dev.firedrill.fault.Verification;
import dev.firedrill.kubernetes.access.ClientText;
import dev.firedrill.kubernetes.access.KubernetesAccess;
import dev.firedrill.kubernetes.select.PodBlastRadius;
import dev.firedrill.kubernetes.select.PodSelector;
import dev.firedrill.time.Durations;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One Chaos Mesh object: created named {@code firedrill-<id>-<index>} and labelled with the
 * experiment, waited for until Chaos Mesh reports it Selected and AllInjected, and deleted in the
 * rollback. Chaos Mesh holds its {@code chaos-mesh/records} finalizer until it has recovered every
 * pod, so a deletion that does not finish is a fault still in place: firedrill reports it for a
 * human and never removes the finalizer itself (that would delete the object and leave the fault).
 */
final class ChaosMeshFault implements Fault {

  static final String EXPERIMENT_LABEL = "firedrill.dev/experiment";
  static final String FAULT_LABEL = "firedrill.dev/fault";

  /**
   * The run that created the object: the rollback and cleanup find and delete by it, so a second
   * run of one experiment, whose create failed on the first's name, never deletes the first's.
   */
  static final String RUN_LABEL = "firedrill.dev/run";

  private static final Duration POLL = Duration.ofMillis(100);

  /** How long a revert waits, once the object is gone, for the watch's last event. */
  private static final Duration WATCH_SETTLE = Duration.ofSeconds(1);

  /** A DNS-1123 subdomain, as Kubernetes names objects. */
  private static final Pattern OBJECT_NAME =
      Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");

  private static final Pattern LABEL_VALUE =
      Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ChaosMeshSpec spec;
  private final FaultContext context;
  private final int index;
  private final KubernetesAccess access;
  private final PodBlastRadius radius;

  private List<String> selected = List.of();

  /** The run id in its labels; empty (no run label) for a journal written before run ids. */
  private String runId;

  /**
   * Whether this process has seen the object, and seen it AllRecovered. Not in the journal's state:
   * cleanup looks afresh, and an object already gone when it looks is gone. Volatile: the revert's
   * watch writes them from the client's thread.
   */
  private volatile boolean seen;

  private volatile boolean recoveredSeen;

  ChaosMeshFault(ChaosMeshSpec spec, FaultContext context, int index) {
    this.spec = spec;
    this.context = context;
    this.index = index;
    this.access = new KubernetesAccess(context.environment());
    this.radius = new PodBlastRadius(ChaosMeshKind.NAME, context.blastRadius());
    this.runId = context.runId();
  }

  void restoreState(Map<String, Object> state) {
    runId = state.get("run") instanceof String run ? run : "";
    if (state.get("selected") instanceof List<?> list) {
      selected = list.stream().map(String::valueOf).toList();
    }
  }

  /** {@code firedrill-<id>-<index>}. */
  String name() {
    return "firedrill-" + context.experimentId() + "-" + index;
  }

  private String where() {
    return spec.chaosKind() + " " + spec.namespace() + "/" + name();
  }

  private Map<String, String> labels() {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(EXPERIMENT_LABEL, context.experimentId());
    labels.put(FAULT_LABEL, String.valueOf(index));
    if (!runId.isEmpty()) {
      labels.put(RUN_LABEL, runId);
    }
    return labels;
  }

  @Override
  public ChaosMeshSpec spec() {
    return spec;
  }

  @Override
  public List<String> plan() throws FaultException {
    FaultChecks.check(spec, context.blastRadius(), context.methodDuration());
    checkNames();
    List<String> lines = new ArrayList<>();
    lines.add(
        "create "
            + where()
            + " ("
            + ChaosKind.API_VERSION
            + ", action "
            + spec.action()
            + ") labelled "
            + EXPERIMENT_LABEL
            + "="
            + context.experimentId()
            + ", its spec as written");
    if (context.resolve()) {
      try (KubernetesClient client = access.connect(context.kubernetesContext())) {
        refuseASecondRun(client);
        int count = candidates(client).size();
        int worst = radius.checkLive(spec.selector().text(), spec.selection(), count);
        lines.add(
            "Chaos Mesh selects "
                + spec.selection().text()
                + ": up to "
                + worst
                + " of "
                + count
                + " running pods matching "
                + spec.selector().text()
                + "; the blast radius allows "
                + radius.allowed(count)
                + " ("
                + radius.limits()
                + ", rounded down)");
      } catch (KubernetesClientException e) {
        throw new FaultException(ChaosMeshKind.NAME + ": cannot list pods: " + ClientText.safe(e));
      }
      lines.add("cluster: " + access.describe(context.kubernetesContext()));
    } else {
      lines.add(
          "Chaos Mesh selects "
              + spec.selection().text()
              + " of the running pods matching "
              + spec.selector().text()
              + ", within "
              + radius.limits()
              + " (rounded down); plan --resolve counts the live pods");
    }
    lines.add(
        (spec.oneShot() ? spec.action() + " acts once: wait up to " : "wait up to ")
            + Durations.format(spec.injectTimeout())
            + " for Selected and AllInjected True; a timeout fails the injection and the rollback"
            + " deletes it");
    lines.add(
        "ttl: Chaos Mesh ends it at spec.duration "
            + Durations.format(spec.duration().orElseThrow())
            + " from its creation, without firedrill");
    lines.add(
        "rollback: delete it and wait up to "
            + Durations.format(spec.deleteTimeout())
            + (spec.oneShot()
                ? " until it is gone (pod-kill leaves nothing to recover: the owners replace the pods)"
                : " until it is gone with AllRecovered True")
            + "; a deletion held by its "
            + ChaosStatus.FINALIZER
            + " finalizer is left to a human, never forced");
    return lines;
  }

  /**
   * An object of this experiment at this index already in the namespace, from any run: a second
   * drill of one experiment against one namespace is refused before anything is created.
   */
  private void refuseASecondRun(KubernetesClient client) throws FaultException {
    List<GenericKubernetesResource> existing =
        objects(client)
            .inNamespace(spec.namespace())
            .withLabel(EXPERIMENT_LABEL, context.experimentId())
            .withLabel(FAULT_LABEL, String.valueOf(index))
            .list()
            .getItems();
    if (!existing.isEmpty()) {
      throw new FaultException(
          ChaosMeshKind.NAME
              + ": "
              + where()
              + " of experiment "
              + context.experimentId()
              + " already exists: another drill of this experiment is running against this"
              + " namespace, or one left it behind; checked before anything was created: "
              + ClientText.shell(getCommand()));
    }
  }

  private void checkNames() throws FaultException {
    if (!OBJECT_NAME.matcher(name()).matches()
        || !LABEL_VALUE.matcher(context.experimentId()).matches()) {
      throw new FaultException(
          ChaosMeshKind.NAME
              + ": the experiment id "
              + context.experimentId()
              + " cannot name a Kubernetes object and label it: expected lowercase letters, digits,"
              + " '-' and '.', at most 63 characters, starting and ending with a letter or digit");
    }
  }

  @Override
  public void inject() throws FaultException {
    checkNames();
    try (KubernetesClient client = access.connect(context.kubernetesContext())) {
      List<Pod> live = candidates(client);
      radius.checkLive(spec.selector().text(), spec.selection(), live.size());
      GenericKubernetesResource object =
          JSON.convertValue(
              ChaosObjectReader.named(spec.object(), name(), labels()),
              GenericKubernetesResource.class);
      try {
        objects(client).resource(object).create();
      } catch (KubernetesClientException e) {
        if (e.getCode() == 409) {
          throw new FaultException(
              ChaosMeshKind.NAME
                  + ": "
                  + where()
                  + " already exists, left by an earlier run; run firedrill cleanup on its journal,"
                  + " or look at it with: "
                  + ClientText.shell(getCommand()));
        }
        throw e;
      }
      GenericKubernetesResource last = awaitInjected(client);
      List<String> recorded = ChaosStatus.recordedPods(last);
      selected =
          recorded.isEmpty()
              ? live.stream().map(p -> p.getMetadata().getName()).sorted().toList()
              : recorded;
    } catch (KubernetesClientException e) {
      throw new FaultException(ChaosMeshKind.NAME + ": " + where() + ": " + ClientText.safe(e));
    }
  }

  private GenericKubernetesResource awaitInjected(KubernetesClient client) throws FaultException {
    long deadline = context.clock().nanoTime() + spec.injectTimeout().toNanos();
    GenericKubernetesResource object = null;
    try {
      while (true) {
        object = resource(client).get();
        if (object != null
            && ChaosStatus.isTrue(object, "Selected")
            && ChaosStatus.isTrue(object, "AllInjected")) {
          note(object);
          return object;
        }
        if (context.clock().nanoTime() - deadline >= 0) {
          break;
        }
        context.clock().sleep(POLL);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FaultException(
          ChaosMeshKind.NAME + ": interrupted while waiting for " + where() + " to be injected");
    }
    if (object != null) {
      note(object);
    }
    throw new FaultException(
        ChaosMeshKind.NAME
            + ": "
            + where()
            + " was not injected within "
            + Durations.format(spec.injectTimeout())
            + " ("
            + (object == null ? "it is gone" : ChaosStatus.conditions(object))
            + "); the rollback deletes it");
  }

  @Override
  public void revert() throws FaultException {
    try (KubernetesClient client = access.connect(context.kubernetesContext())) {
      Watch watch = watch(client);
      try {
        List<GenericKubernetesResource> left = leftovers(client);
        for (GenericKubernetesResource object : left) {
          note(object);
          if (!ChaosStatus.terminating(object)) {
            objects(client).inNamespace(spec.namespace()).resource(object).delete();
          }
        }
        if (!left.isEmpty()) {
          awaitGone(client);
        }
      } finally {
        watch.close();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FaultException(
          ChaosMeshKind.NAME + ": interrupted while waiting for " + where() + " to be deleted");
    } catch (KubernetesClientException e) {
      throw new FaultException(
          ChaosMeshKind.NAME + ": deleting " + where() + ": " + ClientText.safe(e));
    }
  }

  /**
   * Polls until no object is left, then gives the watch a moment to deliver the deletion's event,
   * which carries the last status; throws when the deletion is held past the delete timeout.
   */
  private void awaitGone(KubernetesClient client) throws FaultException, InterruptedException {
    long deadline = context.clock().nanoTime() + spec.deleteTimeout().toNanos();
    while (true) {
      List<GenericKubernetesResource> left = leftovers(client);
      left.forEach(this::note);
      if (left.isEmpty()) {
        break;
      }
      if (context.clock().nanoTime() - deadline >= 0) {
        throw new FaultException(stuck(left.get(0)));
      }
      context.clock().sleep(POLL);
    }
    long settle = context.clock().nanoTime() + WATCH_SETTLE.toNanos();
    while (!recoveredSeen && !spec.oneShot() && context.clock().nanoTime() - settle < 0) {
      context.clock().sleep(POLL);
    }
  }

  private void note(GenericKubernetesResource object) {
    seen = true;
    if (ChaosStatus.isTrue(object, "AllRecovered")) {
      recoveredSeen = true;
    }
  }

  /**
   * Watches this fault's objects while the revert waits: Chaos Mesh may set AllRecovered and drop
   * its finalizer between two polls, and the watch's last event still carries that status.
   */
  private Watch watch(KubernetesClient client) {
    try {
      return objects(client)
          .inNamespace(spec.namespace())
          .withLabels(labels())
          .watch(
              new Watcher<>() {
                @Override
                public void eventReceived(Action action, GenericKubernetesResource object) {
                  note(object);
                }

                @Override
                public void onClose(WatcherException cause) {}
              });
    } catch (KubernetesClientException e) { // polling still sees the object go
      return () -> {};
    }
  }

  private String stuck(GenericKubernetesResource object) {
    List<String> finalizers = ChaosStatus.finalizers(object);
    return ChaosMeshKind.NAME
        + ": the deletion of "
        + where()
        + " did not finish within "
        + Durations.format(spec.deleteTimeout())
        + (finalizers.contains(ChaosStatus.FINALIZER)
            ? ": Chaos Mesh still holds its " + ChaosStatus.FINALIZER + " finalizer"
            : ": finalizers " + finalizers)
        + " ("
        + ChaosStatus.conditions(object)
        + "), so the fault may still be in the pods; "
        + WARNING;
  }

  /** Why firedrill never forces the deletion, said wherever a human is asked to act. */
  static final String WARNING =
      "do not remove the "
          + ChaosStatus.FINALIZER
          + " finalizer by hand: that deletes the object and leaves the fault in place in the pods,"
          + " since only Chaos Mesh's recovery undoes it; find out why Chaos Mesh cannot recover"
          + " (its controller and chaos-daemon pods) and let it finish";

  @Override
  public Verification verify() {
    try (KubernetesClient client = access.connect(context.kubernetesContext())) {
      List<GenericKubernetesResource> left = leftovers(client);
      if (!left.isEmpty()) {
        GenericKubernetesResource object = left.get(0);
        note(object);
        return Verification.remaining(
            where()
                + " is still there ("
                + (ChaosStatus.terminating(object)
                    ? "deleting since "
                        + object.getMetadata().getDeletionTimestamp()
                        + ", finalizers "
                        + ChaosStatus.finalizers(object)
                        + ", "
                    : "")
                + ChaosStatus.conditions(object)
                + ")");
      }
    } catch (FaultException e) {
      return Verification.remaining(e.getMessage());
    } catch (KubernetesClientException e) {
      return Verification.remaining("cannot read the cluster: " + ClientText.safe(e));
    }
    String gone =
        "no "
            + spec.chaosKind()
            + " labelled "
            + EXPERIMENT_LABEL
            + "="
            + context.experimentId()
            + (runId.isEmpty() ? "" : " and " + RUN_LABEL + "=" + runId)
            + " is left in "
            + spec.namespace();
    if (!seen) {
      return Verification.reverted(gone);
    }
    if (spec.oneShot()) {
      return Verification.reverted(
          "deleted "
              + where()
              + "; "
              + gone
              + " ("
              + spec.action()
              + " acted once: nothing to recover)");
    }
    if (recoveredSeen) {
      return Verification.reverted(
          "deleted " + where() + "; verified: AllRecovered was True and " + gone);
    }
    return Verification.remaining(
        where()
            + " is gone, but firedrill never saw it AllRecovered: Chaos Mesh may not have"
            + " recovered the pods "
            + String.join(", ", selected)
            + "; check them by hand");
  }

  /** The commands a human runs while a deletion hangs, as argument lists. */
  List<List<String>> manualCommands() {
    return List.of(
        getCommand(),
        List.of("kubectl", "-n", "chaos-mesh", "get", "pods"),
        List.of(
            "kubectl",
            "-n",
            spec.namespace(),
            "wait",
            "--for=delete",
            spec.kindOfChaos().resource() + "/" + name(),
            "--timeout=5m"));
  }

  private List<String> getCommand() {
    return List.of(
        "kubectl",
        "-n",
        spec.namespace(),
        "get",
        spec.kindOfChaos().resource(),
        name(),
        "-o",
        "yaml");
  }

  @Override
  public String manualRevertCommand() {
    return manualCommands().stream().map(ClientText::shell).collect(Collectors.joining(" && "))
        + " ("
        + WARNING
        + ")";
  }

  @Override
  public Map<String, Object> state() {
    Map<String, Object> state = new LinkedHashMap<>();
    state.put("index", index);
    state.put("name", name());
    state.put("namespace", spec.namespace());
    state.put("chaos_kind", spec.chaosKind());
    state.put("selected", selected);
    if (!runId.isEmpty()) {
      state.put("run", runId);
    }
    return state;
  }

  /** The object's name and labels are known before it is created: cleanup deletes it if it was. */
  @Override
  public Optional<Map<String, Object>> stateBeforeInjection() {
    return Optional.of(state());
  }

  /** Chaos Mesh ends the fault at its spec.duration, even when firedrill is gone. */
  @Override
  public TtlEnforcer ttlEnforcer() {
    return TtlEnforcer.INJECTOR;
  }

  /** The pods of the object's records, else the live selection, as seen at injection. */
  @Override
  public List<String> selected() {
    return selected;
  }

  private MixedOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      objects(KubernetesClient client) {
    return client.genericKubernetesResources(spec.kindOfChaos().context());
  }

  private Resource<GenericKubernetesResource> resource(KubernetesClient client) {
    return objects(client).inNamespace(spec.namespace()).withName(name());
  }

  /** This fault's objects, found by its labels: after a crash, what the run left. */
  private List<GenericKubernetesResource> leftovers(KubernetesClient client) {
    return objects(client).inNamespace(spec.namespace()).withLabels(labels()).list().getItems();
  }

  /** Running pods, not being deleted, matching the selector in any of its namespaces. */
  private List<Pod> candidates(KubernetesClient client) {
    List<Pod> pods = new ArrayList<>();
    for (PodSelector selector : spec.selector().pods()) {
      client
          .pods()
          .inNamespace(selector.namespace())
          .withLabels(selector.labels())
          .list()
          .getItems()
          .stream()
          .filter(selector::matches)
          .filter(
              p ->
                  p.getMetadata().getDeletionTimestamp() == null
                      && p.getStatus() != null
                      && "Running".equals(p.getStatus().getPhase()))
          .forEach(pods::add);
    }
    return pods;
  }
}
