package dev.firedrill.kubernetes.select;

import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.fault.FaultRefusedException;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The blast radius of a Kubernetes fault: which namespaces, and how many of a selector's live pods.
 * Limits round down ({@code max_percent: 34%} of 3 pods allows 1), the selection rounds up, and the
 * worst case is compared with the limit, so a fault that might hit too much is refused before it
 * runs. {@code kind} starts every refusal, such as {@code pod-delete}.
 */
public final class PodBlastRadius {

  /** Namespaces of the cluster itself: refused unless the allow-list names them. */
  static final Set<String> SYSTEM =
      Set.of("kube-system", "kube-public", "kube-node-lease", "local-path-storage");

  private final String kind;
  private final BlastRadius blast;

  public PodBlastRadius(String kind, BlastRadius blast) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.blast = Objects.requireNonNull(blast, "blast");
  }

  /** Whether {@code namespace} is one of the cluster's own (kube-*). */
  public static boolean system(String namespace) {
    return SYSTEM.contains(namespace) || namespace.startsWith("kube-");
  }

  /** Refuses a namespace outside {@code blast_radius.namespaces}, and system ones not listed. */
  public void checkNamespace(String namespace) throws FaultRefusedException {
    List<String> allowed = blast.namespaces();
    if (allowed.contains(namespace)) {
      return;
    }
    if (system(namespace)) {
      throw new FaultRefusedException(
          kind
              + ": namespace "
              + namespace
              + " is a system namespace; it is refused unless blast_radius.namespaces lists it");
    }
    throw new FaultRefusedException(
        kind
            + ": namespace "
            + namespace
            + " is not in blast_radius.namespaces ("
            + (allowed.isEmpty() ? "none listed" : String.join(", ", allowed))
            + ")");
  }

  /**
   * What the file alone refuses: the namespace, {@code mode: all} under any pod limit, a fixed
   * count above {@code max_pods}, a percentage above {@code max_percent}.
   */
  public void checkStatic(String namespace, Selection selection) throws FaultRefusedException {
    checkNamespace(namespace);
    boolean limited =
        blast.maxPercent().filter(p -> p < 1).isPresent() || blast.maxPods().isPresent();
    if (selection.mode() == SelectionMode.ALL && limited) {
      throw new FaultRefusedException(
          kind + ": mode all hits every matching pod, and the blast radius limits " + limits());
    }
    if (selection.mode() == SelectionMode.FIXED
        && blast.maxPods().filter(max -> selection.value() > max).isPresent()) {
      throw new FaultRefusedException(
          kind
              + ": mode fixed picks "
              + selection.value()
              + " pods; blast_radius.max_pods allows "
              + blast.maxPods().get());
    }
    if (selection.mode().percentage()
        && blast.maxPercent().filter(max -> selection.value() > max * 100 + 1e-9).isPresent()) {
      throw new FaultRefusedException(
          kind
              + ": mode "
              + selection.text()
              + " is more than blast_radius.max_percent "
              + percent(blast.maxPercent().get()));
    }
  }

  /** The most pods of {@code count} the limits allow, rounded down. */
  public int allowed(int count) {
    int byPercent = blast.maxPercent().map(p -> (int) Math.floor(count * p + 1e-9)).orElse(count);
    return blast.maxPods().map(max -> Math.min(max, byPercent)).orElse(byPercent);
  }

  /**
   * Refuses when the selection's worst case over {@code count} live pods exceeds what the limits
   * allow, naming both numbers; returns the worst case.
   */
  public int checkLive(String what, Selection selection, int count) throws FaultRefusedException {
    int worst = selection.worstCase(count);
    int allowed = allowed(count);
    if (count == 0) {
      throw new FaultRefusedException(
          kind + ": no running pod matches " + what + "; a fault that hits nothing proves nothing");
    }
    if (worst > allowed) {
      throw new FaultRefusedException(
          kind
              + ": "
              + selection.text()
              + " picks up to "
              + worst
              + " of "
              + count
              + " running pods matching "
              + what
              + "; the blast radius allows "
              + allowed
              + " ("
              + limits()
              + ", rounded down)");
    }
    return worst;
  }

  /** Refuses a drawn selection of no pod: random-max-percent may draw 0%. */
  public void checkNotEmpty(String what, Selection selection, int chosen, int count)
      throws FaultRefusedException {
    if (chosen == 0) {
      throw new FaultRefusedException(
          kind
              + ": "
              + selection.text()
              + " drew no pod of "
              + count
              + " matching "
              + what
              + "; a fault that hits nothing proves nothing");
    }
  }

  /** The limits in words: {@code max_percent 34%, max_pods 2}. */
  public String limits() {
    StringBuilder text = new StringBuilder();
    blast.maxPercent().ifPresent(p -> text.append("max_percent ").append(percent(p)));
    blast
        .maxPods()
        .ifPresent(m -> text.append(text.length() > 0 ? ", " : "").append("max_pods ").append(m));
    return text.length() == 0 ? "no pod limit" : text.toString();
  }

  private static String percent(double share) {
    double value = share * 100;
    return (value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value)) + "%";
  }
}
