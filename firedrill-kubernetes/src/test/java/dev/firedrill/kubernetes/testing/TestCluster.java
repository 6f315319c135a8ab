package dev.firedrill.kubernetes.testing;

import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * fabric8's mock API server in CRUD mode with a controller beside it: a reconciler that recreates a
 * ReplicaSet's deleted pods after {@code replacementDelay}, makes them Ready after {@code
 * readyDelay} (or never, when told), and writes ReplicaSet and Deployment status as the real
 * controllers do. The mock drops set-based selectors, matches fields by name and namespace only and
 * ignores grace periods, so the code under test must not rely on them.
 */
public final class TestCluster implements AutoCloseable {

  /** The token in the kubeconfig {@link #kubeconfig} writes: it must never show in an error. */
  public static final String TOKEN = "s3cr3t-token-5f1c0a";

  private static final Pattern EVICTION =
      Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/?]+)/eviction(\\?.*)?");

  private static final Duration TICK = Duration.ofMillis(25);

  private final KubernetesMockServer server;
  private final KubernetesClient client;
  private final ScheduledExecutorService reconciler;
  private final Duration replacementDelay;
  private final Duration readyDelay;
  private volatile boolean replacementsReady = true;

  /** Per ReplicaSet uid, the nano times at which a missing pod is to be created. */
  private final Map<String, List<Long>> due = new ConcurrentHashMap<>();

  /** Per pod uid, when it becomes Ready. */
  private final Map<String, Long> readyAt = new ConcurrentHashMap<>();

  private final AtomicInteger created = new AtomicInteger();

  public TestCluster(Duration replacementDelay, Duration readyDelay) {
    // Expectations first (a 429 to one eviction), then the CRUD store; plain HTTP on loopback.
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            responses,
            new EvictingDispatcher(responses),
            false);
    server.init(InetAddress.getLoopbackAddress(), 0);
    discovery();
    client =
        server.createClient(b -> b.editOrNewConfig().withRequestRetryBackoffLimit(0).endConfig());
    this.replacementDelay = replacementDelay;
    this.readyDelay = readyDelay;
    reconciler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "test-reconciler");
              thread.setDaemon(true);
              return thread;
            });
    reconciler.scheduleWithFixedDelay(
        this::reconcileQuietly, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Discovery documents by path. */
  private final Map<String, String> discovery = new ConcurrentHashMap<>();

  /** Pods whose eviction a PodDisruptionBudget refuses: the API answers 429. */
  private final Set<String> protectedPods = ConcurrentHashMap.newKeySet();

  /**
   * The mock stores an eviction as an object of its own; the API server deletes the pod instead, or
   * answers 429 when a PodDisruptionBudget protects it.
   */
  private final class EvictingDispatcher extends KubernetesMixedDispatcher {
    EvictingDispatcher(Map<ServerRequest, Queue<ServerResponse>> responses) {
      super(responses);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      String path = request.getPath().replaceFirst("\\?.*", "");
      if ("GET".equals(request.getMethod()) && discovery.containsKey(path)) {
        return new MockResponse()
            .setResponseCode(200)
            .setHeader("Content-Type", "application/json")
            .setBody(discovery.get(path));
      }
      Matcher eviction = EVICTION.matcher(request.getPath());
      if (!"POST".equals(request.getMethod()) || !eviction.matches()) {
        return super.dispatch(request);
      }
      if (protectedPods.contains(eviction.group(2))) {
        return new MockResponse()
            .setResponseCode(429)
            .setBody(
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                    + "\"reason\":\"TooManyRequests\",\"code\":429,\"message\":\"Cannot evict pod as"
                    + " it would violate the pod's disruption budget.\"}");
      }
      super.dispatch(
          new RecordedRequest(
              "HTTP/1.1",
              HttpMethod.DELETE,
              "/api/v1/namespaces/" + eviction.group(1) + "/pods/" + eviction.group(2),
              request.getHeaders(),
              new Buffer()));
      return new MockResponse()
          .setResponseCode(201)
          .setBody(
              "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Success\",\"code\":201}");
    }
  }

  /**
   * The discovery documents kubectl reads before anything else (the mock serves none): the core
   * group with pods, apps with the workloads, policy with evictions.
   */
  private void discovery() {
    answer(
        "/api",
        "{\"kind\":\"APIVersions\",\"versions\":[\"v1\"],\"serverAddressByClientCIDRs\":[]}");
    groups.add(group("apps", "v1"));
    groups.add(group("policy", "v1"));
    answerGroups();
    answer(
        "/api/v1",
        resources(
            "v1",
            resource("pods", "Pod", "pod", true),
            resource("namespaces", "Namespace", "namespace", false)));
    answer(
        "/apis/apps/v1",
        resources(
            "apps/v1",
            resource("deployments", "Deployment", "deployment", true),
            resource("replicasets", "ReplicaSet", "replicaset", true),
            resource("statefulsets", "StatefulSet", "statefulset", true),
            resource("daemonsets", "DaemonSet", "daemonset", true)));
    answer(
        "/apis/policy/v1",
        resources(
            "policy/v1",
            resource("poddisruptionbudgets", "PodDisruptionBudget", "poddisruptionbudget", true)));
  }

  /** kubectl reads a discovery answer without this Content-Type as the aggregated kind. */
  private void answer(String path, String json) {
    discovery.put(path, json);
  }

  /** The groups /apis lists. */
  private final List<String> groups = new java.util.concurrent.CopyOnWriteArrayList<>();

  private void answerGroups() {
    answer(
        "/apis",
        "{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":["
            + String.join(",", groups)
            + "]}");
  }

  /**
   * Serves discovery for a group of namespaced custom resources, as the API server does once their
   * CRDs exist: {@code kinds} maps each plural to its kind.
   */
  public void discover(String name, String version, Map<String, String> kinds) {
    groups.add(group(name, version));
    answerGroups();
    answer(
        "/apis/" + name + "/" + version,
        resources(
            name + "/" + version,
            kinds.entrySet().stream()
                .map(e -> resource(e.getKey(), e.getValue(), e.getKey(), true))
                .toArray(String[]::new)));
  }

  private static String group(String name, String v) {
    String version = "{\"groupVersion\":\"" + name + "/" + v + "\",\"version\":\"" + v + "\"}";
    return "{\"name\":\""
        + name
        + "\",\"versions\":["
        + version
        + "],\"preferredVersion\":"
        + version
        + "}";
  }

  private static String resources(String groupVersion, String... resources) {
    return "{\"kind\":\"APIResourceList\",\"apiVersion\":\"v1\",\"groupVersion\":\""
        + groupVersion
        + "\",\"resources\":["
        + String.join(",", resources)
        + "]}";
  }

  private static String resource(String plural, String kind, String singular, boolean namespaced) {
    return "{\"name\":\""
        + plural
        + "\",\"singularName\":\""
        + singular
        + "\",\"namespaced\":"
        + namespaced
        + ",\"kind\":\""
        + kind
        + "\",\"verbs\":[\"create\",\"delete\",\"get\",\"list\",\"patch\",\"update\",\"watch\"]}";
  }

  /** From now on, evicting {@code pod} is refused as a PodDisruptionBudget refuses it. */
  public void protect(String pod) {
    protectedPods.add(pod);
  }

  /** The mock server itself, for expectations. */
  public KubernetesMockServer server() {
    return server;
  }

  public KubernetesClient client() {
    return client;
  }

  /** From now on, replacement pods are created but never become Ready. */
  public void neverMakeReplacementsReady() {
    replacementsReady = false;
  }

  /**
   * A Deployment with a ReplicaSet and {@code replicas} Running, Ready pods named {@code name-0..},
   * labelled {@code labels}.
   */
  public synchronized Deployment deployment(
      String namespace, String name, int replicas, Map<String, String> labels) {
    Deployment deployment =
        client
            .apps()
            .deployments()
            .inNamespace(namespace)
            .resource(
                new DeploymentBuilder()
                    .withNewMetadata()
                    .withName(name)
                    .withNamespace(namespace)
                    .withGeneration(1L)
                    .endMetadata()
                    .withNewSpec()
                    .withReplicas(replicas)
                    .withNewSelector()
                    .withMatchLabels(labels)
                    .endSelector()
                    .withNewTemplate()
                    .withNewMetadata()
                    .withLabels(labels)
                    .endMetadata()
                    .endTemplate()
                    .endSpec()
                    .build())
            .create();
    ReplicaSet replicaSet =
        client
            .apps()
            .replicaSets()
            .inNamespace(namespace)
            .resource(
                new ReplicaSetBuilder()
                    .withNewMetadata()
                    .withName(name + "-rs")
                    .withNamespace(namespace)
                    .withGeneration(1L)
                    .withOwnerReferences(
                        new OwnerReferenceBuilder()
                            .withApiVersion("apps/v1")
                            .withKind("Deployment")
                            .withName(name)
                            .withUid(deployment.getMetadata().getUid())
                            .withController(true)
                            .build())
                    .endMetadata()
                    .withNewSpec()
                    .withReplicas(replicas)
                    .withNewSelector()
                    .withMatchLabels(labels)
                    .endSelector()
                    .withNewTemplate()
                    .withNewMetadata()
                    .withLabels(labels)
                    .endMetadata()
                    .endTemplate()
                    .endSpec()
                    .build())
            .create();
    for (int i = 0; i < replicas; i++) {
      createPod(replicaSet, name + "-" + i, true);
    }
    reconcile();
    return deployment;
  }

  /** A kubeconfig in {@code dir} whose current context {@code mock} reaches this server. */
  public Path kubeconfig(Path dir) throws IOException {
    Path file = dir.resolve("kubeconfig");
    String url = client.getConfiguration().getMasterUrl();
    Files.writeString(
        file,
        "apiVersion: v1\nkind: Config\ncurrent-context: mock\nclusters:\n- name: mock\n  cluster:\n"
            + "    server: "
            + url
            + "\n    insecure-skip-tls-verify: true\ncontexts:\n- name: mock\n  context:\n"
            + "    cluster: mock\n    user: tester\n    namespace: default\nusers:\n- name: tester\n"
            + "  user:\n    token: "
            + TOKEN
            + "\n");
    return file;
  }

  /** How many replacement pods the controller has created. */
  public int replacements() {
    return created.get();
  }

  private Pod createPod(ReplicaSet owner, String name, boolean ready) {
    Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(owner.getMetadata().getNamespace())
            .withLabels(owner.getSpec().getTemplate().getMetadata().getLabels())
            .withOwnerReferences(
                new OwnerReferenceBuilder()
                    .withApiVersion("apps/v1")
                    .withKind("ReplicaSet")
                    .withName(owner.getMetadata().getName())
                    .withUid(owner.getMetadata().getUid())
                    .withController(true)
                    .build())
            .endMetadata()
            .withNewSpec()
            .withNodeName("node-1")
            .withTerminationGracePeriodSeconds(30L)
            .endSpec()
            .withNewStatus()
            .withPhase("Running")
            .withConditions(readyCondition(ready))
            .endStatus()
            .build();
    return client.pods().inNamespace(owner.getMetadata().getNamespace()).resource(pod).create();
  }

  private static PodCondition readyCondition(boolean ready) {
    return new PodConditionBuilder().withType("Ready").withStatus(ready ? "True" : "False").build();
  }

  private void reconcileQuietly() {
    try {
      reconcile();
    } catch (RuntimeException e) { // the server is closing, or a write raced a test's delete
    }
  }

  private synchronized void reconcile() {
    long now = System.nanoTime();
    for (ReplicaSet replicaSet : client.apps().replicaSets().inAnyNamespace().list().getItems()) {
      String namespace = replicaSet.getMetadata().getNamespace();
      String uid = replicaSet.getMetadata().getUid();
      List<Pod> owned = new ArrayList<>();
      for (Pod pod : client.pods().inNamespace(namespace).list().getItems()) {
        if (pod.getMetadata().getOwnerReferences().stream().anyMatch(o -> uid.equals(o.getUid()))
            && pod.getMetadata().getDeletionTimestamp() == null) {
          owned.add(pod);
        }
      }
      List<Long> pending = due.computeIfAbsent(uid, k -> new ArrayList<>());
      int missing = replicaSet.getSpec().getReplicas() - owned.size() - pending.size();
      for (int i = 0; i < missing; i++) {
        pending.add(now + replacementDelay.toNanos());
      }
      for (java.util.Iterator<Long> it = pending.iterator(); it.hasNext(); ) {
        if (it.next() - now <= 0) {
          it.remove();
          Pod pod =
              createPod(
                  replicaSet,
                  replicaSet.getMetadata().getName() + "-r" + created.incrementAndGet(),
                  false);
          if (replacementsReady) {
            readyAt.put(pod.getMetadata().getUid(), now + readyDelay.toNanos());
          }
          owned.add(pod);
        }
      }
      int ready = 0;
      for (Pod pod : owned) {
        Long at = readyAt.get(pod.getMetadata().getUid());
        if (at != null && at - now <= 0) {
          readyAt.remove(pod.getMetadata().getUid());
          pod.getStatus().setConditions(List.of(readyCondition(true)));
          client.pods().inNamespace(namespace).resource(pod).updateStatus();
        }
        if (isReady(pod)) {
          ready++;
        }
      }
      writeStatus(replicaSet, owned.size(), ready);
    }
  }

  private static boolean isReady(Pod pod) {
    return pod.getStatus() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private void writeStatus(ReplicaSet replicaSet, int replicas, int ready) {
    String namespace = replicaSet.getMetadata().getNamespace();
    Long generation = replicaSet.getMetadata().getGeneration();
    if (replicaSet.getStatus() == null
        || !Objects.equals(replicaSet.getStatus().getReplicas(), replicas)
        || !Objects.equals(replicaSet.getStatus().getReadyReplicas(), ready)
        || !Objects.equals(replicaSet.getStatus().getObservedGeneration(), generation)) {
      replicaSet.setStatus(
          new io.fabric8.kubernetes.api.model.apps.ReplicaSetStatusBuilder()
              .withReplicas(replicas)
              .withReadyReplicas(ready)
              .withAvailableReplicas(ready)
              .withFullyLabeledReplicas(replicas)
              .withObservedGeneration(generation)
              .build());
      client.apps().replicaSets().inNamespace(namespace).resource(replicaSet).updateStatus();
    }
    for (var owner : replicaSet.getMetadata().getOwnerReferences()) {
      if (!"Deployment".equals(owner.getKind())) {
        continue;
      }
      Deployment deployment =
          client.apps().deployments().inNamespace(namespace).withName(owner.getName()).get();
      if (deployment == null) {
        continue;
      }
      var status =
          new io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder()
              .withObservedGeneration(deployment.getMetadata().getGeneration())
              .withReplicas(replicas)
              .withUpdatedReplicas(replicas)
              .withReadyReplicas(ready)
              .withAvailableReplicas(ready)
              .withUnavailableReplicas(Math.max(0, replicas - ready))
              .build();
      if (!status.equals(deployment.getStatus())) {
        deployment.setStatus(status);
        client.apps().deployments().inNamespace(namespace).resource(deployment).updateStatus();
      }
    }
  }

  @Override
  public void close() {
    reconciler.shutdownNow();
    try {
      reconciler.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    client.close();
    server.destroy();
  }
}
