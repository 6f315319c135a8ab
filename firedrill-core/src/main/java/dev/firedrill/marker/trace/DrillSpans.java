package dev.firedrill.marker.trace;

import dev.firedrill.engine.DrillObserver;
import dev.firedrill.engine.Milestone;
import dev.firedrill.engine.Phase;
import dev.firedrill.engine.Verdict;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.guard.Reading;
import dev.firedrill.http.Propagation;
import dev.firedrill.marker.MarkerTarget;
import dev.firedrill.time.Clock;
import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The drill as a trace: a root span {@code drill <id>}, a child per phase, and under the phases a
 * span per fault injection, measurement and fault rollback, all timed by the drill's clock. Guard
 * breaches and the abort are span events.
 *
 * <p>From {@code DrillStarted} to {@code DrillFinished} the root span and the baggage {@code
 * chaos.experiment.id} are the current context of the drill thread, so every request sent with
 * {@link Propagation#injectCurrent} carries them.
 */
public final class DrillSpans implements DrillObserver {

  private static final AttributeKey<String> EXPERIMENT =
      AttributeKey.stringKey(Propagation.EXPERIMENT_ID);
  private static final AttributeKey<String> TITLE =
      AttributeKey.stringKey("chaos.experiment.title");
  private static final AttributeKey<String> VERDICT = AttributeKey.stringKey("chaos.verdict");
  private static final AttributeKey<String> REASON = AttributeKey.stringKey("chaos.verdict.reason");
  private static final AttributeKey<String> PHASE = AttributeKey.stringKey("chaos.phase");
  private static final AttributeKey<Long> FAULT_INDEX = AttributeKey.longKey("chaos.fault.index");
  private static final AttributeKey<String> FAULT_KIND = AttributeKey.stringKey("chaos.fault.kind");
  private static final AttributeKey<String> FAULT_TARGET =
      AttributeKey.stringKey("chaos.fault.target");
  private static final AttributeKey<List<String>> FAULT_SELECTED =
      AttributeKey.stringArrayKey("chaos.fault.selected");
  private static final AttributeKey<String> STATUS =
      AttributeKey.stringKey("chaos.measurement.status");
  private static final AttributeKey<String> READINGS =
      AttributeKey.stringKey("chaos.measurement.readings");
  private static final AttributeKey<String> GUARD = AttributeKey.stringKey("chaos.guard.name");
  private static final AttributeKey<Double> GUARD_VALUE =
      AttributeKey.doubleKey("chaos.guard.value");
  private static final AttributeKey<String> GUARD_EXPECTED =
      AttributeKey.stringKey("chaos.guard.expected");
  private static final AttributeKey<String> ABORT_REASON =
      AttributeKey.stringKey("chaos.abort.reason");

  private static final String INSTRUMENTATION = "dev.firedrill";

  private final SdkTracerProvider provider;
  private final Tracer tracer;
  private final Clock clock;
  private Span root;
  private Context rootContext;
  private Scope scope;
  private Thread scopeThread;
  private Span phase;
  private final Map<Integer, Span> faults = new HashMap<>();
  private final Map<Integer, Span> reverts = new HashMap<>();

  /** What each fault selected at injection, for its revert span too. */
  private final Map<Integer, List<String>> selected = new HashMap<>();

  /** Spans go to {@code provider}'s processors; {@link #close} flushes and shuts it down. */
  public DrillSpans(SdkTracerProvider provider, Clock clock) {
    this.provider = provider;
    this.tracer = provider.get(INSTRUMENTATION);
    this.clock = clock;
  }

  @Override
  public synchronized void on(Milestone milestone) {
    if (milestone instanceof Milestone.DrillStarted started) {
      start(started);
    } else if (milestone instanceof Milestone.PhaseStarted started) {
      phase(started.phase(), started.at());
    } else if (milestone instanceof Milestone.FaultInjecting injecting) {
      faults.put(
          injecting.index(),
          fault(
              "inject " + injecting.spec().kind(),
              injecting.index(),
              injecting.spec(),
              injecting.at()));
    } else if (milestone instanceof Milestone.FaultInjected injected) {
      Span span = faults.remove(injected.index());
      selected.put(injected.index(), injected.selected());
      if (span != null) {
        named(span, injected.spec(), injected.selected());
        injected.failure().ifPresent(failure -> span.setStatus(StatusCode.ERROR, failure));
        span.end(injected.at());
      }
    } else if (milestone instanceof Milestone.Measured measured) {
      measured(measured);
    } else if (milestone instanceof Milestone.Aborted aborted) {
      if (root != null) {
        root.addEvent("drill aborted", Attributes.of(ABORT_REASON, aborted.reason()), aborted.at());
      }
    } else if (milestone instanceof Milestone.FaultReverting reverting) {
      reverts.put(
          reverting.index(),
          fault(
              "revert " + reverting.spec().kind(),
              reverting.index(),
              reverting.spec(),
              reverting.at()));
    } else if (milestone instanceof Milestone.FaultReverted reverted) {
      Span span = reverts.remove(reverted.index());
      if (span != null) {
        named(span, reverted.spec(), selected.getOrDefault(reverted.index(), List.of()));
        if (!reverted.reverted()) {
          span.setStatus(StatusCode.ERROR, "not verified reverted: needs a human");
        }
        span.end(reverted.at());
      }
    } else if (milestone instanceof Milestone.DrillFinished finished) {
      finish(finished);
    }
  }

  private void start(Milestone.DrillStarted started) {
    String id = started.experiment().id();
    root =
        tracer
            .spanBuilder("drill " + id)
            .setParent(Context.root())
            .setStartTimestamp(started.at())
            .setAttribute(EXPERIMENT, id)
            .setAttribute(TITLE, started.experiment().title())
            .startSpan();
    rootContext =
        Context.root()
            .with(root)
            .with(Baggage.builder().put(Propagation.EXPERIMENT_ID, id).build());
    scope = rootContext.makeCurrent();
    scopeThread = Thread.currentThread();
  }

  private void phase(Phase next, Instant at) {
    if (root == null) {
      return;
    }
    endPhase(at);
    phase =
        tracer
            .spanBuilder(next.name().toLowerCase(Locale.ROOT))
            .setParent(rootContext)
            .setStartTimestamp(at)
            .setAttribute(PHASE, next.text())
            .startSpan();
  }

  private Span fault(String name, int index, FaultSpec spec, Instant at) {
    return tracer
        .spanBuilder(name)
        .setParent(parent())
        .setStartTimestamp(at)
        .setAttribute(FAULT_INDEX, (long) index)
        .setAttribute(FAULT_KIND, spec.kind())
        .setAttribute(FAULT_TARGET, spec.targetName())
        .startSpan();
  }

  /** The fault's target with the pods it selected, once it selected some. */
  private static void named(Span span, FaultSpec spec, List<String> names) {
    if (!names.isEmpty()) {
      span.setAttribute(FAULT_TARGET, MarkerTarget.of(spec, names));
      span.setAttribute(FAULT_SELECTED, MarkerTarget.names(names));
    }
  }

  private void measured(Milestone.Measured measured) {
    Span span =
        tracer
            .spanBuilder("measure")
            .setParent(parent())
            .setStartTimestamp(measured.startedAt())
            .setAttribute(PHASE, measured.phase().text())
            .setAttribute(STATUS, measured.measurement().status().text())
            .setAttribute(READINGS, measured.measurement().text())
            .startSpan();
    measured
        .measurement()
        .readings()
        .filter(r -> r.status() == Reading.Status.BREACH)
        .forEach(
            breach ->
                span.addEvent(
                    "guard breach",
                    Attributes.of(
                        GUARD,
                        breach.name(),
                        GUARD_VALUE,
                        breach.value().getAsDouble(),
                        GUARD_EXPECTED,
                        breach.expectation()),
                    measured.at()));
    span.end(measured.at());
  }

  private Context parent() {
    Context base = rootContext == null ? Context.root() : rootContext;
    return phase == null ? base : base.with(phase);
  }

  private void finish(Milestone.DrillFinished finished) {
    if (root == null) {
      return;
    }
    endOpen(finished.at());
    root.setAttribute(VERDICT, finished.verdict().text());
    root.setAttribute(REASON, finished.reason());
    if (finished.abortReason().isPresent()
        || finished.verdict() == Verdict.FAILED
        || finished.verdict() == Verdict.ABORTED) {
      root.setStatus(StatusCode.ERROR, finished.abortReason().orElse(finished.reason()));
    }
    root.end(finished.at());
    root = null;
    closeScope();
  }

  private void endPhase(Instant at) {
    if (phase != null) {
      phase.end(at);
      phase = null;
    }
  }

  /** Ends whatever is still open (an injection or rollback cut short), children before parents. */
  private void endOpen(Instant at) {
    for (Span span : faults.values()) {
      span.setStatus(StatusCode.ERROR, "the drill ended before this finished");
      span.end(at);
    }
    for (Span span : reverts.values()) {
      span.setStatus(StatusCode.ERROR, "the drill ended before this finished");
      span.end(at);
    }
    faults.clear();
    reverts.clear();
    endPhase(at);
  }

  /**
   * A scope can only be closed on the thread that opened it; closed anywhere else it would restore
   * that other thread's context, so then it is left to the drill thread's end.
   */
  private void closeScope() {
    if (scope != null && scopeThread == Thread.currentThread()) {
      scope.close();
      scope = null;
    }
  }

  /**
   * Ends the spans of a drill that never finished, then flushes within {@code limit} and shuts
   * down.
   */
  @Override
  public void close(Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    synchronized (this) {
      if (root != null) {
        Instant now = clock.now();
        endOpen(now);
        root.setStatus(StatusCode.ERROR, "the drill did not finish");
        root.end(now);
        root = null;
      }
      closeScope();
    }
    try {
      await(provider.forceFlush(), deadline);
      await(provider.shutdown(), deadline);
    } catch (RuntimeException ignored) {
      // close never throws: a failing exporter must not hide the drill's outcome
    }
  }

  private static void await(CompletableResultCode result, long deadline) {
    long left = deadline - System.nanoTime();
    result.join(Math.max(1, left), TimeUnit.NANOSECONDS);
  }
}
