package dev.firedrill.simulate;

import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.FaultSpec.HttpToxic;
import dev.firedrill.fault.FaultRefusedException;
import java.util.List;
import java.util.Map;

/**
 * Each fault kind's effect on the simulated lab, by the kind's name. The table lives here, not in
 * the kinds: the model (its services, its {@link Effect}s) is the simulator's, and the fault kinds
 * sit below it. FaultEffectsTest holds it to the installed kinds, so a kind without an effect fails
 * a test.
 */
final class FaultEffects {

  static final String METRICS_PROXY_SUFFIX = "-metrics";
  private static final List<String> SERVICES = List.of(LabModel.CHECKOUT, LabModel.PAYMENTS);

  /** One kind's effect, typed by its spec record. */
  @FunctionalInterface
  private interface Simulation<S extends FaultSpec> {
    Effect of(S spec) throws FaultRefusedException;
  }

  /** An http-* kind's effect: what its effect does to a share of the calls to a service. */
  @FunctionalInterface
  private interface ToxicSimulation<E extends HttpToxic.Effect> {
    Effect of(String service, double share, E effect);
  }

  /** A simulation with its spec record, so that a spec is cast by Class.cast, never unchecked. */
  private record Entry<S extends FaultSpec>(Class<S> type, Simulation<S> simulation) {
    Effect of(FaultSpec spec) throws FaultRefusedException {
      return simulation.of(type.cast(spec));
    }
  }

  static final Map<String, Entry<?>> BY_KIND =
      Map.of(
          "process-kill",
          new Entry<>(FaultSpec.ProcessKill.class, FaultEffects::down),
          "cpu-burn",
          new Entry<>(FaultSpec.CpuBurn.class, burn -> new Effect.CpuBurn(burn.workers())),
          "http-latency",
          toxic(
              HttpToxic.Latency.class,
              (service, share, l) ->
                  new Effect.Slower(service, share, Latency.uniform(l.latency(), l.jitter()))),
          "http-error",
          toxic(
              HttpToxic.Error.class,
              (service, share, e) -> new Effect.Failing(service, share, e.status())),
          "http-reset",
          toxic(HttpToxic.Reset.class, (service, share, r) -> new Effect.Reset(service, share)),
          "http-timeout",
          toxic(
              HttpToxic.Timeout.class,
              (service, share, t) -> new Effect.Held(service, share, t.timeout())),
          "exporter-down",
          new Entry<>(FaultSpec.ExporterDown.class, FaultEffects::exporterDown),
          "command",
          new Entry<>(FaultSpec.Command.class, FaultEffects::command));

  /** Whatever another tool injects is beyond the model: the simulation refuses it, saying so. */
  private static Effect command(FaultSpec.Command spec) throws FaultRefusedException {
    throw new FaultRefusedException(
        "command: what "
            + spec.targetName()
            + " injects is unknown to firedrill, so the simulated lab cannot predict it;"
            + " expected a drill against the real system");
  }

  private FaultEffects() {}

  static Effect of(FaultSpec spec) throws FaultRefusedException {
    Entry<?> entry = BY_KIND.get(spec.kind());
    if (entry == null) {
      throw new FaultRefusedException(
          spec.kind()
              + " cannot be simulated; the simulated lab knows "
              + String.join(", ", BY_KIND.keySet().stream().sorted().toList()));
    }
    return entry.of(spec);
  }

  private static <E extends HttpToxic.Effect> Entry<HttpToxic> toxic(
      Class<E> effect, ToxicSimulation<E> simulation) {
    return new Entry<>(
        HttpToxic.class,
        toxic ->
            simulation.of(
                service(toxic.proxyName(), "proxy_name"),
                toxic.share(),
                effect.cast(toxic.effect())));
  }

  private static Effect down(FaultSpec.ProcessKill kill) throws FaultRefusedException {
    return new Effect.Down(
        SERVICES.stream()
            .filter(kill.match()::contains)
            .findFirst()
            .orElseThrow(
                () ->
                    new FaultRefusedException(
                        "process-kill match \""
                            + kill.match()
                            + "\" names no simulated service (expected a match containing "
                            + String.join(" or ", SERVICES)
                            + ")")));
  }

  private static Effect exporterDown(FaultSpec.ExporterDown down) throws FaultRefusedException {
    String name = down.proxyName();
    String job =
        name.endsWith(METRICS_PROXY_SUFFIX)
            ? name.substring(0, name.length() - METRICS_PROXY_SUFFIX.length())
            : name;
    return new Effect.ExporterDown(service(job, "proxy_name"));
  }

  private static String service(String name, String field) throws FaultRefusedException {
    if (!SERVICES.contains(name)) {
      throw new FaultRefusedException(
          field
              + " \""
              + name
              + "\" is no simulated service (expected "
              + String.join(" or ", SERVICES)
              + ", or "
              + LabModel.PAYMENTS
              + METRICS_PROXY_SUFFIX
              + " for exporter-down)");
    }
    return name;
  }
}
