package dev.firedrill.killmatrix;

/** The fault kinds the matrix drills on this machine, each as fault 0 of a trial. */
enum FaultKind {
  PROCESS_STOP("process-kill"),
  CPU_BURN("cpu-burn"),
  HTTP_ERROR("http-error"),
  HTTP_LATENCY("http-latency"),
  EXPORTER_DOWN("exporter-down"),
  COMMAND("command");

  final String kind;

  FaultKind(String kind) {
    this.kind = kind;
  }
}
