package dev.firedrill.simulate;

import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.FaultRefusedException;
import java.util.List;

/** Each fault kind's effect on the simulated lab. */
final class FaultEffects {

  static final String METRICS_PROXY_SUFFIX = "-metrics";
  private static final List<String> SERVICES = List.of(LabModel.CHECKOUT, LabModel.PAYMENTS);

  private FaultEffects() {}

  static Effect of(FaultSpec spec) throws FaultRefusedException {
    if (spec instanceof FaultSpec.HttpToxic toxic) {
      String service = service(toxic.proxyName(), "proxy_name");
      double share = toxic.share();
      FaultSpec.HttpToxic.Effect effect = toxic.effect();
      if (effect instanceof FaultSpec.HttpToxic.Latency l) {
        return new Effect.Slower(service, share, Latency.uniform(l.latency(), l.jitter()));
      }
      if (effect instanceof FaultSpec.HttpToxic.Error e) {
        return new Effect.Failing(service, share, e.status());
      }
      if (effect instanceof FaultSpec.HttpToxic.Timeout t) {
        return new Effect.Held(service, share, t.timeout());
      }
      return new Effect.Reset(service, share);
    }
    if (spec instanceof FaultSpec.ExporterDown down) {
      String name = down.proxyName();
      String job = name.endsWith(METRICS_PROXY_SUFFIX) ? name.substring(0, name.length() - METRICS_PROXY_SUFFIX.length())
          : name;
      return new Effect.ExporterDown(service(job, "proxy_name"));
    }
    if (spec instanceof FaultSpec.ProcessKill kill) {
      return new Effect.Down(SERVICES.stream().filter(kill.match()::contains).findFirst()
          .orElseThrow(() -> new FaultRefusedException("process-kill match \"" + kill.match()
              + "\" names no simulated service (expected a match containing " + String.join(" or ", SERVICES) + ")")));
    }
    return new Effect.CpuBurn(((FaultSpec.CpuBurn) spec).workers());
  }

  private static String service(String name, String field) throws FaultRefusedException {
    if (!SERVICES.contains(name)) {
      throw new FaultRefusedException(field + " \"" + name + "\" is no simulated service (expected "
          + String.join(" or ", SERVICES) + ", or " + LabModel.PAYMENTS + METRICS_PROXY_SUFFIX + " for exporter-down)");
    }
    return name;
  }
}
