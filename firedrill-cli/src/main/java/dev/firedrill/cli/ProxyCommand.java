package dev.firedrill.cli;

import dev.firedrill.proxy.FaultProxy;
import dev.firedrill.proxy.ProxyConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
    name = "proxy",
    description =
        "Run a fault proxy between a service and its upstream: toxics (latency, error,"
            + " reset, timeout, bandwidth) added through a Toxiproxy-shaped admin API, each removed by the proxy itself when"
            + " its ttl ends. Runs until SIGINT or SIGTERM.")
final class ProxyCommand implements Callable<Integer> {

  @Option(
      names = "--listen",
      required = true,
      paramLabel = "HOST:PORT",
      description = "Where clients connect, such as 127.0.0.1:8080.")
  String listen;

  @Option(
      names = "--upstream",
      required = true,
      paramLabel = "URL",
      description =
          "The service behind the proxy: http://HOST:PORT[/prefix] in http mode, tcp://HOST:PORT in tcp mode.")
  String upstream;

  @Option(
      names = "--admin",
      required = true,
      paramLabel = "HOST:PORT",
      description = "The admin API's address, such as 127.0.0.1:8474.")
  String admin;

  @Option(
      names = "--metrics",
      paramLabel = "HOST:PORT",
      description = "Serve Prometheus metrics on /metrics here.")
  String metrics;

  @Option(
      names = "--name",
      defaultValue = ProxyConfig.DEFAULT_NAME,
      description = "The proxy's name (default: ${DEFAULT-VALUE}).")
  String name;

  @Option(
      names = "--mode",
      defaultValue = "http",
      paramLabel = "http|tcp",
      description =
          "http: request by request, every toxic; tcp: a byte pipe per connection (default: ${DEFAULT-VALUE}).")
  String mode;

  @Option(
      names = "--admin-token-env",
      paramLabel = "VAR",
      description =
          "Require Authorization: Bearer TOKEN on the admin API, TOKEN read from this environment variable.")
  String adminTokenEnv;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  /** The environment the token is read from; tests replace it. */
  Map<String, String> environment = System.getenv();

  private final CountDownLatch stopped = new CountDownLatch(1);

  @Override
  public Integer call() {
    ProxyConfig config = config();
    PrintWriter out = spec.commandLine().getOut();
    FaultProxy proxy;
    try {
      proxy = FaultProxy.start(config);
    } catch (IOException e) {
      throw new UserError(
          "proxy "
              + config.name()
              + ": cannot bind "
              + listen
              + ", "
              + admin
              + (metrics == null ? "" : " or " + metrics)
              + ": "
              + e.getMessage(),
          ExitCode.INVALID,
          e);
    }
    Thread hook = new Thread(this::stop, "firedrill-proxy-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      out.println(
          "proxy "
              + proxy.name()
              + " ("
              + mode
              + "): "
              + hostPort(proxy.listenAddress())
              + " -> "
              + config.upstream());
      out.println(
          "admin API: "
              + proxy.adminUrl()
              + "/proxies"
              + (adminTokenEnv == null ? "" : " (bearer token from env " + adminTokenEnv + ")"));
      proxy
          .metricsAddress()
          .ifPresent(address -> out.println("metrics: http://" + hostPort(address) + "/metrics"));
      out.println("running until SIGINT or SIGTERM");
      out.flush();
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      proxy.close();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is already shutting down: the hook is what stopped us
      }
    }
    out.println("proxy " + config.name() + ": stopped; toxics still in force went with it");
    out.flush();
    return ExitCode.HELD;
  }

  /** Ends {@link #call()}; the shutdown hook calls it on SIGINT and SIGTERM. */
  void stop() {
    stopped.countDown();
  }

  private ProxyConfig config() {
    ProxyConfig.Mode chosen =
        switch (mode.toLowerCase(Locale.ROOT)) {
          case "http" -> ProxyConfig.Mode.HTTP;
          case "tcp" -> ProxyConfig.Mode.TCP;
          default ->
              throw new UserError("--mode " + mode + ": expected http or tcp", ExitCode.INVALID);
        };
    Optional<String> token = Optional.empty();
    if (adminTokenEnv != null) {
      String value = environment.get(adminTokenEnv);
      if (value == null || value.isBlank()) {
        throw new UserError(
            "--admin-token-env "
                + adminTokenEnv
                + ": the environment variable is not set"
                + " (expected the admin API's bearer token)",
            ExitCode.INVALID);
      }
      token = Optional.of(value.strip());
    }
    try {
      return new ProxyConfig(
          name,
          chosen,
          address("--listen", listen),
          upstream(chosen),
          address("--admin", admin),
          Optional.ofNullable(metrics).map(m -> address("--metrics", m)),
          token);
    } catch (IllegalArgumentException e) {
      throw new UserError("firedrill proxy: " + e.getMessage(), ExitCode.INVALID, e);
    }
  }

  private URI upstream(ProxyConfig.Mode chosen) {
    UrlOptions.refuseUserInfo("firedrill proxy", "--upstream", upstream);
    String text =
        chosen == ProxyConfig.Mode.TCP && !upstream.contains("://")
            ? "tcp://" + upstream
            : upstream;
    try {
      return new URI(text);
    } catch (URISyntaxException e) {
      throw new UserError(
          "--upstream " + upstream + ": expected a URL such as http://127.0.0.1:9000",
          ExitCode.INVALID);
    }
  }

  static InetSocketAddress address(String option, String text) {
    int colon = text.lastIndexOf(':');
    String host = colon > 0 ? text.substring(0, colon) : "";
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      port = -1;
    }
    if (host.isEmpty() || port < 0 || port > 65535) {
      throw new UserError(
          option + " " + text + ": expected HOST:PORT such as 127.0.0.1:8474", ExitCode.INVALID);
    }
    InetSocketAddress address = new InetSocketAddress(host.replaceAll("^\\[|\\]$", ""), port);
    if (address.isUnresolved()) {
      throw new UserError(option + " " + text + ": cannot resolve host " + host, ExitCode.INVALID);
    }
    return address;
  }

  private static String hostPort(InetSocketAddress address) {
    return address.getAddress().getHostAddress() + ":" + address.getPort();
  }
}
