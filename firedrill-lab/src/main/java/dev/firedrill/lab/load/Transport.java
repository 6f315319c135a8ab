package dev.firedrill.lab.load;

import dev.firedrill.lab.trace.TraceParent;
import java.util.concurrent.CompletableFuture;

/**
 * Sends one request of the plan without waiting for it; the future ends with its outcome and never
 * fails.
 */
public interface Transport {

  CompletableFuture<Outcome> send(TraceParent traceparent);
}
