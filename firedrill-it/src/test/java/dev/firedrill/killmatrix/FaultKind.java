package dev.firedrill.killmatrix;

/**
 * Every fault kind the jar has, each drilled as fault 0 of a trial; {@link MatrixLab#kinds()} are
 * those this machine can drill. {@code enforcer} is what the journal must say ends the fault at its
 * ttl once firedrill is dead ({@code ttl_enforced_by}), {@code how} what the matrix waits on for
 * it.
 */
enum FaultKind {
  PROCESS_STOP("process-kill", "the watchdog", "the watchdog sends SIGCONT", Target.HOST),
  CPU_BURN("cpu-burn", "the injector", "the workers exit on their own clock", Target.HOST),
  HTTP_ERROR("http-error", "the injector", "the proxy drops the toxic at its ttl", Target.PROXY),
  HTTP_LATENCY("http-latency", "the injector", "the proxy drops the toxic", Target.PROXY),
  HTTP_RESET("http-reset", "the injector", "the proxy drops the toxic", Target.PROXY),
  HTTP_TIMEOUT("http-timeout", "the injector", "the proxy drops the toxic", Target.PROXY),
  EXPORTER_DOWN("exporter-down", "the injector", "the proxy drops the toxic", Target.PROXY),
  COMMAND("command", "the watchdog", "the watchdog runs the revert command", Target.HOST),
  NETWORK_PARTITION(
      "network-partition", "the kernel", "the nftables set's elements time out", Target.NETNS),
  NETWORK_REFUSE("network-refuse", "the kernel", "the set's elements time out", Target.NETNS),
  NETWORK_LOSS("network-loss", "the kernel", "the set's elements time out", Target.NETNS),
  NETWORK_BANDWIDTH(
      "network-bandwidth", "the watchdog", "the watchdog deletes the tc qdisc", Target.NETNS),
  /** Needs the kernel's sch_netem, which not every kernel has. */
  NETWORK_DELAY("network-delay", "the watchdog", "the watchdog deletes the qdisc", Target.NETNS),
  POD_DELETE(
      "pod-delete",
      "nothing: the fault leaves nothing to undo",
      "the ReplicaSet's controller replaces the pod",
      Target.CLUSTER),
  CHAOS_MESH("chaos-mesh", "the injector", "Chaos Mesh recovers at spec.duration", Target.CLUSTER),
  SPRING_CHAOS_MONKEY(
      "spring-chaos-monkey",
      "the watchdog",
      "the watchdog disables Chaos Monkey and its assaults",
      Target.SPRING);

  /** What a trial of the kind drills against, besides the lab's shared proxy and Prometheus. */
  enum Target {
    HOST,
    PROXY,
    /** Two network namespaces of the trial's own joined by a veth pair. */
    NETNS,
    /** A mock API server of the trial's own, with its controllers. */
    CLUSTER,
    /** The lab's one Spring Boot application, one trial at a time. */
    SPRING
  }

  final String kind;
  final String enforcer;
  final String how;
  final Target target;

  FaultKind(String kind, String enforcer, String how, Target target) {
    this.kind = kind;
    this.enforcer = enforcer;
    this.how = how;
    this.target = target;
  }
}
