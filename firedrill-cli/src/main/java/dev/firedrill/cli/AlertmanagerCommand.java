package dev.firedrill.cli;

import dev.firedrill.embedded.alertmanager.RealTimeAlertmanager;
import dev.firedrill.embedded.alertmanager.api.ApiServer;
import dev.firedrill.embedded.alertmanager.config.AlertmanagerConfig;
import dev.firedrill.embedded.alertmanager.config.ConfigException;
import dev.firedrill.embedded.alertmanager.webhook.HttpSender;
import dev.firedrill.net.HostPort;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
    name = "alertmanager",
    description =
        "Run the embedded Alertmanager: an alertmanager.yml's routes, grouping "
            + "and timings, webhook receivers only, and the API a Prometheus posts alerts to. Runs until SIGINT or SIGTERM.")
final class AlertmanagerCommand implements Callable<Integer> {

  /** How long the shutdown hook lets the run close its server before the JVM goes. */
  private static final long STOP_WAIT_SECONDS = 5;

  @Option(
      names = "--config",
      required = true,
      paramLabel = "ALERTMANAGER_YML",
      description = "The Alertmanager configuration file.")
  Path config;

  @Option(
      names = "--listen",
      defaultValue = "127.0.0.1:9093",
      paramLabel = "HOST:PORT",
      description = "Where the API listens (default: ${DEFAULT-VALUE}).")
  String listen;

  @Option(
      names = "--external-url",
      paramLabel = "URL",
      description =
          "The externalURL webhook payloads carry (default: http://HOST:PORT of --listen).")
  String externalUrl;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  private final CountDownLatch stopped = new CountDownLatch(1);
  private final CountDownLatch closed = new CountDownLatch(1);

  @Override
  public Integer call() {
    UrlOptions.refuseUserInfo("firedrill alertmanager", "--external-url", externalUrl);
    AlertmanagerConfig loaded;
    try {
      loaded = AlertmanagerConfig.load(config);
    } catch (ConfigException e) {
      throw new UserError(e.getMessage(), ExitCode.INVALID, e);
    }
    InetSocketAddress address;
    try {
      address = HostPort.parse(listen);
    } catch (IllegalArgumentException e) {
      throw new UserError(
          "firedrill alertmanager: --listen " + e.getMessage(), ExitCode.INVALID, e);
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    // As Alertmanager logs them at start: matchers read by the classic parser, or read differently
    // by the two.
    loaded.routes().warnings().forEach(warning -> err.println("alertmanager: warning: " + warning));
    err.flush();
    String external = externalUrl != null ? externalUrl : "http://" + HostPort.format(address);
    Thread hook = new Thread(this::stopAndWait, "firedrill-alertmanager-shutdown");
    try (RealTimeAlertmanager alertmanager =
            RealTimeAlertmanager.start(
                loaded,
                Clock.system(),
                new HttpSender(),
                external,
                line -> {
                  synchronized (err) {
                    err.println("alertmanager: " + line);
                    err.flush();
                  }
                });
        ApiServer api = listen(alertmanager, address)) {
      Runtime.getRuntime().addShutdownHook(hook);
      out.println(
          "embedded Alertmanager: "
              + api.url()
              + " (config "
              + config
              + ", receivers: "
              + String.join(", ", loaded.receivers().keySet())
              + ")");
      out.println("running until SIGINT or SIGTERM");
      out.flush();
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      closed.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is already shutting down: the hook is what stopped us
      }
    }
    out.println("embedded Alertmanager: stopped");
    out.flush();
    return ExitCode.HELD;
  }

  /** Ends {@link #call()}. */
  void stop() {
    stopped.countDown();
  }

  private void stopAndWait() {
    stop();
    try {
      closed.await(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private ApiServer listen(RealTimeAlertmanager alertmanager, InetSocketAddress address) {
    try {
      return ApiServer.start(alertmanager, address);
    } catch (IOException e) {
      throw new UserError(
          "firedrill alertmanager: cannot listen on "
              + HostPort.format(address)
              + ": "
              + e.getMessage(),
          ExitCode.INVALID,
          e);
    }
  }
}
