package dev.firedrill.kubernetes.testing;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Chaos Mesh's controller as far as firedrill can see it, beside a {@link TestCluster}: registers
 * the CRDs of its kinds, adds the {@code chaos-mesh/records} finalizer to each new object, selects
 * pods (namespaces, labelSelectors; modes one, all, fixed, fixed-percent rounded up), writes
 * records and the Selected, AllInjected and AllRecovered conditions, kills the pods of a pod-kill,
 * recovers the records when {@code spec.duration} has passed since it first saw the object (the
 * object stays, as Chaos Mesh's does) and when the object is being deleted, and only then removes
 * the finalizer. It can be told never to inject and never to release the finalizer.
 */
public final class ChaosMeshController implements AutoCloseable {

  public static final List<String> KINDS =
      List.of("PodChaos", "NetworkChaos", "StressChaos", "HTTPChaos", "IOChaos", "TimeChaos");

  public static final String FINALIZER = "chaos-mesh/records";

  private static final Duration TICK = Duration.ofMillis(25);
  private static final Pattern GO_DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

  private final KubernetesClient client;
  private final ScheduledExecutorService loop;
  private final Map<String, Long> firstSeen = new ConcurrentHashMap<>();
  private volatile boolean inject = true;
  private volatile boolean release = true;

  public ChaosMeshController(TestCluster cluster) {
    this.client = cluster.client();
    Map<String, String> plurals = new LinkedHashMap<>();
    for (String kind : KINDS) {
      client.apiextensions().v1().customResourceDefinitions().resource(crd(kind)).create();
      plurals.put(kind.toLowerCase(Locale.ROOT), kind);
    }
    cluster.discover("chaos-mesh.org", "v1alpha1", plurals);
    loop =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "test-chaos-mesh");
              thread.setDaemon(true);
              return thread;
            });
    loop.scheduleWithFixedDelay(this::reconcileQuietly, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** From now on, objects are Selected but never AllInjected (a chaos-daemon that cannot act). */
  public void neverInject() {
    inject = false;
  }

  /** From now on, a deleted object keeps its finalizer: its records are never recovered. */
  public void neverReleaseFinalizer() {
    release = false;
  }

  /** Releases finalizers again, as a repaired Chaos Mesh would. */
  public void releaseFinalizers() {
    release = true;
  }

  public static ResourceDefinitionContext context(String kind) {
    return new ResourceDefinitionContext.Builder()
        .withGroup("chaos-mesh.org")
        .withVersion("v1alpha1")
        .withKind(kind)
        .withPlural(kind.toLowerCase(Locale.ROOT))
        .withNamespaced(true)
        .build();
  }

  /** The objects of {@code kind} in {@code namespace}. */
  public List<GenericKubernetesResource> objects(String kind, String namespace) {
    return client
        .genericKubernetesResources(context(kind))
        .inNamespace(namespace)
        .list()
        .getItems();
  }

  private static CustomResourceDefinition crd(String kind) {
    String plural = kind.toLowerCase(Locale.ROOT);
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata()
        .withName(plural + ".chaos-mesh.org")
        .endMetadata()
        .withNewSpec()
        .withGroup("chaos-mesh.org")
        .withScope("Namespaced")
        .withNewNames()
        .withKind(kind)
        .withPlural(plural)
        .withSingular(plural)
        .withListKind(kind + "List")
        .endNames()
        .addNewVersion()
        .withName("v1alpha1")
        .withServed(true)
        .withStorage(true)
        .withNewSchema()
        .withNewOpenAPIV3Schema()
        .withType("object")
        .withXKubernetesPreserveUnknownFields(true)
        .endOpenAPIV3Schema()
        .endSchema()
        .endVersion()
        .endSpec()
        .build();
  }

  private void reconcileQuietly() {
    try {
      for (String kind : KINDS) {
        for (GenericKubernetesResource object :
            client.genericKubernetesResources(context(kind)).inAnyNamespace().list().getItems()) {
          reconcile(kind, object);
        }
      }
    } catch (RuntimeException e) { // a write raced firedrill's delete, or the server is closing
    }
  }

  @SuppressWarnings("unchecked")
  private void reconcile(String kind, GenericKubernetesResource object) {
    var resource =
        client
            .genericKubernetesResources(context(kind))
            .inNamespace(object.getMetadata().getNamespace())
            .resource(object);
    List<String> finalizers =
        object.getMetadata().getFinalizers() == null
            ? new ArrayList<>()
            : new ArrayList<>(object.getMetadata().getFinalizers());
    boolean deleting = object.getMetadata().getDeletionTimestamp() != null;
    if (!deleting && !finalizers.contains(FINALIZER)) {
      finalizers.add(FINALIZER);
      object.getMetadata().setFinalizers(finalizers);
      resource.update();
      return;
    }
    long now = System.nanoTime();
    long seen = firstSeen.computeIfAbsent(object.getMetadata().getUid(), k -> now);
    Map<String, Object> spec = (Map<String, Object>) object.getAdditionalProperties().get("spec");
    Map<String, Object> status =
        (Map<String, Object>)
            object.getAdditionalProperties().computeIfAbsent("status", k -> new LinkedHashMap<>());
    Map<String, Object> experiment =
        (Map<String, Object>) status.computeIfAbsent("experiment", k -> new LinkedHashMap<>());
    boolean expired = duration(spec).filter(d -> now - seen >= d.toNanos()).isPresent();
    if (deleting || expired) {
      String recovered = deleting && !release ? "False" : "True";
      if (!recovered.equals(condition(status, "AllRecovered"))) {
        List<Map<String, Object>> records = records(experiment);
        records.forEach(
            r -> r.put("phase", "True".equals(recovered) ? "Not Injected" : "Injected"));
        experiment.put("desiredPhase", "Stop");
        status.put(
            "conditions",
            conditions(!records.isEmpty(), "True".equals(recovered) ? "False" : "True", recovered));
        resource.updateStatus();
        return;
      }
      if (deleting && release) {
        finalizers.remove(FINALIZER);
        object.getMetadata().setFinalizers(finalizers);
        resource.update();
      }
      return;
    }
    if (!experiment.containsKey("containerRecords")) {
      List<Pod> pods = select(object, spec);
      List<Map<String, Object>> records = new ArrayList<>();
      for (Pod pod : pods) {
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("id", pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName());
        record.put("selectorKey", ".");
        record.put("phase", inject ? "Injected" : "Not Injected");
        records.add(record);
      }
      experiment.put("containerRecords", records);
      experiment.put("desiredPhase", "Run");
      status.put("conditions", conditions(!pods.isEmpty(), inject ? "True" : "False", "False"));
      resource.updateStatus();
      if (inject && "PodChaos".equals(kind) && "pod-kill".equals(spec.get("action"))) {
        pods.forEach(p -> client.pods().resource(p).delete());
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> records(Map<String, Object> experiment) {
    Object records = experiment.get("containerRecords");
    return records instanceof List<?> list ? (List<Map<String, Object>>) list : List.of();
  }

  @SuppressWarnings("unchecked")
  private static String condition(Map<String, Object> status, String type) {
    Object conditions = status.get("conditions");
    if (conditions instanceof List<?> list) {
      for (Object item : list) {
        Map<String, Object> condition = (Map<String, Object>) item;
        if (type.equals(condition.get("type"))) {
          return String.valueOf(condition.get("status"));
        }
      }
    }
    return "";
  }

  private static List<Map<String, Object>> conditions(
      boolean selected, String allInjected, String allRecovered) {
    List<Map<String, Object>> conditions = new ArrayList<>();
    conditions.add(Map.of("type", "Selected", "status", selected ? "True" : "False"));
    conditions.add(Map.of("type", "AllInjected", "status", allInjected));
    conditions.add(Map.of("type", "AllRecovered", "status", allRecovered));
    conditions.add(Map.of("type", "Paused", "status", "False"));
    return conditions;
  }

  private static java.util.Optional<Duration> duration(Map<String, Object> spec) {
    Object text = spec == null ? null : spec.get("duration");
    if (!(text instanceof String duration)) {
      return java.util.Optional.empty();
    }
    Duration total = Duration.ZERO;
    Matcher term = GO_DURATION.matcher(duration);
    while (term.find()) {
      long n = Long.parseLong(term.group(1));
      total =
          total.plus(
              switch (term.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
              });
    }
    return java.util.Optional.of(total);
  }

  /** Chaos Mesh's selection, for the modes the tests use: sorted by name, the first ones. */
  @SuppressWarnings("unchecked")
  private List<Pod> select(GenericKubernetesResource object, Map<String, Object> spec) {
    Map<String, Object> selector = (Map<String, Object>) spec.getOrDefault("selector", Map.of());
    List<String> namespaces =
        (List<String>)
            selector.getOrDefault("namespaces", List.of(object.getMetadata().getNamespace()));
    Map<String, String> labels =
        (Map<String, String>) selector.getOrDefault("labelSelectors", Map.of());
    List<Pod> pods = new ArrayList<>();
    for (String namespace : namespaces) {
      client.pods().inNamespace(namespace).withLabels(labels).list().getItems().stream()
          .filter(
              p ->
                  p.getMetadata().getDeletionTimestamp() == null
                      && "Running".equals(p.getStatus().getPhase()))
          .forEach(pods::add);
    }
    pods.sort(java.util.Comparator.comparing(p -> p.getMetadata().getName()));
    String mode = String.valueOf(spec.get("mode"));
    int value = spec.get("value") == null ? 0 : Integer.parseInt(String.valueOf(spec.get("value")));
    int count =
        switch (mode) {
          case "all" -> pods.size();
          case "fixed" -> Math.min(value, pods.size());
          case "fixed-percent", "random-max-percent" -> (pods.size() * value + 99) / 100;
          default -> Math.min(1, pods.size());
        };
    return List.copyOf(pods.subList(0, count));
  }

  @Override
  public void close() {
    loop.shutdownNow();
    try {
      loop.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
