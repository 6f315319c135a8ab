package dev.firedrill.simulate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Expected rates a second of every series the lab's services expose, for a model and the effects
 * that are on: checkout's outcome is the last attempt's, as {@code CheckoutService} decides it.
 */
final class Traffic {

  /** How long a refused, reset or proxy-answered call takes on loopback. */
  static final double LOOPBACK_SECONDS = 0.001;

  private Traffic() {}

  enum Result {
    OK,
    TIMEOUT,
    SERVER_ERROR,
    UNREACHABLE,
    REJECTED;

    boolean retryable() {
      return this == TIMEOUT || this == SERVER_ERROR || this == UNREACHABLE;
    }
  }

  /**
   * One way an attempt to call payments ends, with its share, its duration and whether payments
   * served it.
   */
  record Attempt(Result result, double weight, Latency duration, boolean reached) {}

  /** Requests a second of one service at a latency distribution. */
  record Served(double rate, Latency latency) {}

  /** One service's rates: requests a second by status code, and what their latency was. */
  record ServiceRates(Map<String, Double> codes, List<Served> served) {
    static ServiceRates idle(List<String> knownCodes) {
      Map<String, Double> codes = new LinkedHashMap<>();
      knownCodes.forEach(code -> codes.put(code, 0.0));
      return new ServiceRates(codes, new ArrayList<>());
    }

    void add(String code, double rate, Latency latency) {
      codes.merge(code, rate, Double::sum);
      served.add(new Served(rate, latency));
    }
  }

  /** Every rate of the lab a second: both services, and checkout's orders by result. */
  record Rates(ServiceRates checkout, ServiceRates payments, Map<String, Double> orders) {}

  static final List<String> CHECKOUT_CODES = List.of("200", "500", "502");
  static final List<String> PAYMENTS_CODES = List.of("200", "500");
  static final List<String> ORDER_RESULTS = List.of("completed", "pending", "failed");

  static Rates of(LabModel model, List<Effect> effects) {
    ServiceRates checkout = ServiceRates.idle(CHECKOUT_CODES);
    ServiceRates payments = ServiceRates.idle(PAYMENTS_CODES);
    Map<String, Double> orders = new LinkedHashMap<>();
    ORDER_RESULTS.forEach(result -> orders.put(result, 0.0));
    if (down(effects, LabModel.CHECKOUT)) {
      return new Rates(checkout, payments, orders);
    }
    double cpu = cpuSeconds(model, effects);
    Latency own = model.checkout().distribution().plus(cpu);
    double failsItself = model.checkout().errorRatio();
    if (failsItself > 0) {
      checkout.add("500", model.rate() * failsItself, own);
    }
    double calling = model.rate() * (1 - failsItself);
    Latency paymentsServed = model.payments().distribution().plus(cpu);
    for (Attempt first : attempts(model, effects, paymentsServed)) {
      List<Attempt> lasts =
          first.result().retryable()
              ? attempts(model, effects, paymentsServed).stream()
                  .map(
                      second ->
                          new Attempt(
                              second.result(),
                              first.weight() * second.weight(),
                              first.duration().then(second.duration()),
                              second.reached()))
                  .toList()
              : List.of(new Attempt(first.result(), first.weight(), first.duration(), false));
      if (first.reached()) {
        servePayments(payments, model, calling * first.weight(), paymentsServed);
      }
      for (Attempt last : lasts) {
        double rate = calling * last.weight();
        if (first.result().retryable() && last.reached()) {
          servePayments(payments, model, rate, paymentsServed);
        }
        Latency took = own.then(last.duration());
        switch (last.result()) {
          case OK -> {
            checkout.add("200", rate, took);
            orders.merge("completed", rate, Double::sum);
          }
          case TIMEOUT -> {
            checkout.add("200", rate, took);
            orders.merge("pending", rate, Double::sum);
          }
          default -> {
            checkout.add("502", rate, took);
            orders.merge("failed", rate, Double::sum);
          }
        }
      }
    }
    return new Rates(checkout, payments, orders);
  }

  private static void servePayments(
      ServiceRates payments, LabModel model, double rate, Latency latency) {
    double errors = model.payments().errorRatio();
    if (errors < 1) {
      payments.add("200", rate * (1 - errors), latency);
    }
    if (errors > 0) {
      payments.add("500", rate * errors, latency);
    }
  }

  /**
   * The ways one call from checkout to payments ends. The proxy's toxics take their shares in turn
   * (error, reset, hold), latency applies to what passes; what takes longer than checkout's timeout
   * times out at it.
   */
  static List<Attempt> attempts(LabModel model, List<Effect> effects, Latency paymentsServed) {
    double timeout = model.checkoutTimeout().toNanos() / 1e9;
    if (down(effects, LabModel.PAYMENTS)) {
      return List.of(new Attempt(Result.UNREACHABLE, 1, Latency.fixed(LOOPBACK_SECONDS), false));
    }
    List<Attempt> out = new ArrayList<>();
    double left = 1;
    for (Effect effect : effects) {
      if (effect instanceof Effect.Failing f && f.service().equals(LabModel.PAYMENTS)) {
        double share = left * f.share();
        out.add(
            new Attempt(
                f.status() >= 500 ? Result.SERVER_ERROR : Result.REJECTED,
                share,
                Latency.fixed(LOOPBACK_SECONDS),
                false));
        left -= share;
      } else if (effect instanceof Effect.Reset r && r.service().equals(LabModel.PAYMENTS)) {
        double share = left * r.share();
        out.add(new Attempt(Result.UNREACHABLE, share, Latency.fixed(LOOPBACK_SECONDS), false));
        left -= share;
      } else if (effect instanceof Effect.Held h && h.service().equals(LabModel.PAYMENTS)) {
        double share = left * h.share();
        double hold = h.hold().toNanos() / 1e9;
        boolean closedFirst = hold > 0 && hold < timeout;
        out.add(
            new Attempt(
                closedFirst ? Result.UNREACHABLE : Result.TIMEOUT,
                share,
                Latency.fixed(closedFirst ? hold : timeout),
                false));
        left -= share;
      }
    }
    double slowed = 0;
    Latency added = Latency.fixed(0);
    for (Effect effect : effects) {
      if (effect instanceof Effect.Slower s && s.service().equals(LabModel.PAYMENTS)) {
        slowed = s.share();
        added = s.added();
      }
    }
    double errors = model.payments().errorRatio();
    if (left > 0) {
      addPassing(out, left * (1 - slowed), paymentsServed, errors, timeout);
      if (slowed > 0) {
        addPassing(out, left * slowed, paymentsServed.then(added), errors, timeout);
      }
    }
    return out;
  }

  private static void addPassing(
      List<Attempt> out, double share, Latency duration, double errors, double timeout) {
    if (share <= 0) {
      return;
    }
    List<Latency.Point> inTime =
        duration.points().stream().filter(p -> p.seconds() < timeout).toList();
    double late = 1 - inTime.stream().mapToDouble(Latency.Point::weight).sum();
    if (!inTime.isEmpty()) {
      double inTimeWeight = 1 - late;
      Latency answered =
          new Latency(
              inTime.stream()
                  .map(p -> new Latency.Point(p.seconds(), p.weight() / inTimeWeight))
                  .toList());
      if (errors < 1) {
        out.add(new Attempt(Result.OK, share * inTimeWeight * (1 - errors), answered, true));
      }
      if (errors > 0) {
        out.add(new Attempt(Result.SERVER_ERROR, share * inTimeWeight * errors, answered, true));
      }
    }
    if (late > 1e-12) {
      out.add(new Attempt(Result.TIMEOUT, share * late, Latency.fixed(timeout), true));
    }
  }

  static boolean down(List<Effect> effects, String service) {
    return effects.stream()
        .anyMatch(e -> e instanceof Effect.Down d && d.service().equals(service));
  }

  private static double cpuSeconds(LabModel model, List<Effect> effects) {
    int workers =
        effects.stream().mapToInt(e -> e instanceof Effect.CpuBurn c ? c.workers() : 0).sum();
    return workers * model.cpuBurnLatencyPerWorker().toNanos() / 1e9;
  }
}
