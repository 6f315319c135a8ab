package dev.firedrill.spring.chaosmonkey;

import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.TokenSource;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.ProcessTable;
import dev.firedrill.fault.WorkerLauncher;
import dev.firedrill.time.Clock;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** Specs, contexts and faults for spring-chaos-monkey's tests: the service watcher on. */
final class Monkeys {

  static final Watchers SERVICE = new Watchers(false, false, true, false, false);
  static final Duration TTL = Duration.ofMinutes(5);

  private Monkeys() {}

  static ChaosMonkeySpec spec(URI actuator, TokenSource token, Assaults assaults) {
    return new ChaosMonkeySpec(actuator, token, assaults, SERVICE, Optional.of(TTL));
  }

  static Assaults latency(int level, long startMillis, long endMillis) {
    return new Assaults(
        level, true, Optional.of(new LatencyRange(startMillis, endMillis)), Optional.empty());
  }

  static Assaults exceptions(int level, String type) {
    return new Assaults(level, true, Optional.empty(), Optional.of(type));
  }

  static FaultContext context(double trafficShare, Map<String, String> environment) {
    return new FaultContext(
        "exp-1",
        new BlastRadius(trafficShare, Duration.ofMinutes(15), 0.05, 1, 1),
        Duration.ofMinutes(1),
        ProcessTable.system(),
        WorkerLauncher.current(),
        Clock.system(),
        environment,
        Optional.empty());
  }

  static Fault fault(ChaosMonkeySpec spec, FaultContext context) {
    return new ChaosMonkeyKind().create(spec, context, 0);
  }
}
