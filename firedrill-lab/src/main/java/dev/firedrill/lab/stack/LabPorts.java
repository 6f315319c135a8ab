package dev.firedrill.lab.stack;

import dev.firedrill.net.Loopback;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The loopback ports of the lab. The files in {@code fixtures/lab/} and the fixture experiments
 * name the default ports; {@link #rewrite} moves any text onto other ports, so a demo or a test can
 * run on free ports from the same files.
 */
public record LabPorts(
    int checkout,
    int checkoutMetrics,
    int payments,
    int paymentsMetrics,
    int proxy,
    int proxyAdmin,
    int proxyMetrics,
    int loadMetrics,
    int prometheus,
    int alertmanager,
    int webhook,
    int paymentsMetricsProxy,
    int metricsProxyAdmin,
    int firedrillMetrics) {

  public static LabPorts defaults() {
    return new LabPorts(
        18080, 18081, 18090, 18091, 18085, 18474, 18086, 18099, 19090, 19093, 19101, 18092, 18475,
        19466);
  }

  /** Fourteen distinct free ports (the same free port twice would start two components on it). */
  public static LabPorts free() {
    int[] p = Loopback.freePorts(14);
    return new LabPorts(
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11], p[12], p[13]);
  }

  /** Every port by the name users see in {@code lab up}'s output. */
  public Map<String, Integer> byName() {
    Map<String, Integer> ports = new LinkedHashMap<>();
    ports.put("checkout", checkout);
    ports.put("checkout metrics", checkoutMetrics);
    ports.put("payments", payments);
    ports.put("payments metrics", paymentsMetrics);
    ports.put("proxy", proxy);
    ports.put("proxy admin", proxyAdmin);
    ports.put("proxy metrics", proxyMetrics);
    ports.put("payments metrics proxy", paymentsMetricsProxy);
    ports.put("metrics proxy admin", metricsProxyAdmin);
    ports.put("load metrics", loadMetrics);
    ports.put("prometheus", prometheus);
    ports.put("alertmanager", alertmanager);
    ports.put("webhooks", webhook);
    ports.put("firedrill metrics", firedrillMetrics);
    return ports;
  }

  /** The first port that something already listens on, or 0. */
  public int firstInUse() {
    return byName().values().stream().filter(Loopback::inUse).findFirst().orElse(0);
  }

  /** Replaces every {@code 127.0.0.1:<default port>} in {@code text} with this lab's port. */
  public String rewrite(String text) {
    Map<String, Integer> defaults = defaults().byName();
    Map<String, Integer> mine = byName();
    String result = text;
    // Through placeholders, so a port that is both someone's default and someone else's new port is
    // not moved twice.
    for (String name : defaults.keySet()) {
      result =
          result.replaceAll(
              "127\\.0\\.0\\.1:" + defaults.get(name) + "(?!\\d)", "127.0.0.1:{" + name + "}");
    }
    for (String name : mine.keySet()) {
      result = result.replace("127.0.0.1:{" + name + "}", "127.0.0.1:" + mine.get(name));
    }
    return result;
  }
}
