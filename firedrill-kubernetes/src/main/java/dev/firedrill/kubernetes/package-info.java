/**
 * Faults in a Kubernetes cluster (pod-delete, chaos-mesh), found by {@link java.util.ServiceLoader}
 * as {@link dev.firedrill.fault.FaultKind}s; only firedrill-cli depends on this module.
 */
package dev.firedrill.kubernetes;
