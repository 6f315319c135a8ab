package dev.firedrill.experiment;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A fault as the experiment file describes it: a record per family of kinds (the http-* kinds share
 * {@link HttpToxic}). How a kind is read, written to the journal, checked and built is its {@code
 * dev.firedrill.fault.FaultKind}'s business; a record nested here without one is caught by
 * FaultKindsTest.
 *
 * <p>Not sealed: a fault family with dependencies of its own (Kubernetes, Spring) lives in a module
 * above this one, with its spec record beside its kind.
 */
public interface FaultSpec {

  /** A share is a fraction of what a fault touches: more than none, at most all. */
  private static void requireShare(double share) {
    if (!(share > 0 && share <= 1)) {
      throw new IllegalArgumentException("share must lie in (0, 1], such as 0.2 for 20%");
    }
  }

  /** The name used in files, journals and messages, for example {@code process-kill}. */
  String kind();

  /** How long the fault may live if firedrill itself dies; enforced by the injector. */
  Optional<Duration> ttl();

  /** A short description of what the fault touches, used in the console and the journal. */
  String target();

  /**
   * What the fault touches as one short name, for labels and tags: a proxy's name, a process match,
   * {@code localhost} for this host.
   */
  String targetName();

  /**
   * Signals processes whose {@code /proc/PID/cmdline} contains {@code match}. With a share (a
   * fraction in (0, 1]) the selection rounds up (at least one process); the limit in the blast
   * radius does not round.
   */
  record ProcessKill(String match, String signal, Optional<Double> share, Optional<Duration> ttl)
      implements FaultSpec {

    public static final String DEFAULT_SIGNAL = "KILL";

    public ProcessKill {
      signal = signal == null ? DEFAULT_SIGNAL : signal;
      share = share == null ? Optional.empty() : share;
      ttl = ttl == null ? Optional.empty() : ttl;
      share.ifPresent(FaultSpec::requireShare);
    }

    @Override
    public String kind() {
      return "process-kill";
    }

    @Override
    public String target() {
      return "processes matching \"" + match + "\"";
    }

    @Override
    public String targetName() {
      return match;
    }
  }

  /** Starts {@code workers} busy processes that exit by themselves after the TTL. */
  /**
   * Any injector, by command: {@code inject}, {@code revert} and {@code verify} are argument lists
   * run without a shell; {@code verify} exits 0 when nothing of the fault remains. With {@code
   * state}, the inject command's stdout (trimmed) is kept and handed to the others as {@code
   * FIREDRILL_FAULT_STATE} and {@code {{ state }}}. Each command is ended after {@code timeout}.
   */
  record Command(
      List<String> inject,
      List<String> revert,
      List<String> verify,
      boolean state,
      Duration timeout,
      Optional<Duration> ttl)
      implements FaultSpec {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    public Command {
      inject = List.copyOf(inject);
      revert = List.copyOf(revert);
      verify = List.copyOf(verify);
      timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
      ttl = ttl == null ? Optional.empty() : ttl;
      if (inject.isEmpty() || revert.isEmpty() || verify.isEmpty()) {
        throw new IllegalArgumentException("inject, revert and verify each need a program");
      }
    }

    @Override
    public String kind() {
      return "command";
    }

    @Override
    public String target() {
      return "what " + targetName() + " injects";
    }

    @Override
    public String targetName() {
      String program = inject.get(0);
      return program.substring(program.lastIndexOf('/') + 1);
    }
  }

  record CpuBurn(int workers, Optional<Duration> ttl) implements FaultSpec {

    public CpuBurn {
      ttl = ttl == null ? Optional.empty() : ttl;
    }

    @Override
    public String kind() {
      return "cpu-burn";
    }

    @Override
    public String target() {
      return workers + " cpu worker" + (workers == 1 ? "" : "s") + " on this host";
    }

    @Override
    public String targetName() {
      return "localhost";
    }
  }

  /**
   * A toxic on a fault proxy at {@code proxy}, acting on a {@code share} (a fraction in (0, 1]) of
   * the requests through the proxy named {@code proxyName}. On firedrill's proxy ({@code proxyKind}
   * FIREDRILL) the toxic carries its ttl and the proxy removes it by itself; Toxiproxy has no ttl,
   * so firedrill's watchdog removes it.
   */
  record HttpToxic(
      URI proxy,
      String proxyName,
      double share,
      Effect effect,
      Optional<Duration> ttl,
      Optional<String> adminTokenEnv,
      ProxyKind proxyKind)
      implements FaultSpec {

    public static final String DEFAULT_PROXY_NAME = "payments";
    public static final double DEFAULT_SHARE = 1;
    public static final int DEFAULT_STATUS = 503;

    /** Which server answers the admin API at {@code proxy}. */
    public enum ProxyKind {
      /** firedrill's own fault proxy: toxics with a ttl, HTTP statuses. */
      FIREDRILL,
      /** Shopify's Toxiproxy: TCP toxics, no ttl. */
      TOXIPROXY;

      /** The name in files: {@code firedrill} or {@code toxiproxy}. */
      public String text() {
        return name().toLowerCase(Locale.ROOT);
      }
    }

    public HttpToxic {
      Objects.requireNonNull(proxy, "proxy");
      Objects.requireNonNull(effect, "effect");
      proxyName = proxyName == null ? DEFAULT_PROXY_NAME : proxyName;
      ttl = ttl == null ? Optional.empty() : ttl;
      adminTokenEnv = adminTokenEnv == null ? Optional.empty() : adminTokenEnv;
      proxyKind = proxyKind == null ? ProxyKind.FIREDRILL : proxyKind;
      requireShare(share);
    }

    /** On firedrill's own proxy. */
    public HttpToxic(
        URI proxy,
        String proxyName,
        double share,
        Effect effect,
        Optional<Duration> ttl,
        Optional<String> adminTokenEnv) {
      this(proxy, proxyName, share, effect, ttl, adminTokenEnv, ProxyKind.FIREDRILL);
    }

    @Override
    public String kind() {
      return effect.kind();
    }

    @Override
    public String target() {
      return "requests through proxy " + proxyName + " (" + proxy + ")";
    }

    @Override
    public String targetName() {
      return proxyName;
    }

    /** What the toxic does to a request. */
    public sealed interface Effect permits Latency, Error, Reset, Timeout {
      /** The fault kind in files and journals. */
      String kind();
    }

    /** Adds {@code latency}, plus or minus up to {@code jitter}. */
    public record Latency(Duration latency, Duration jitter) implements Effect {
      public Latency {
        Objects.requireNonNull(latency, "latency");
        jitter = jitter == null ? Duration.ZERO : jitter;
      }

      @Override
      public String kind() {
        return "http-latency";
      }
    }

    /** Answers {@code status} without calling the upstream. */
    public record Error(int status) implements Effect {
      public Error {
        if (status < 400 || status > 599) {
          throw new IllegalArgumentException("status must be an HTTP error status, 400 to 599");
        }
      }

      @Override
      public String kind() {
        return "http-error";
      }
    }

    /** Closes the client's connection with a TCP RST. */
    public record Reset() implements Effect {
      @Override
      public String kind() {
        return "http-reset";
      }
    }

    /**
     * Holds the request; after {@code timeout} the connection closes; zero holds until the toxic
     * goes.
     */
    public record Timeout(Duration timeout) implements Effect {
      public Timeout {
        timeout = timeout == null ? Duration.ZERO : timeout;
      }

      @Override
      public String kind() {
        return "http-timeout";
      }
    }
  }

  /**
   * A service's metrics endpoint stops answering: every scrape through the fault proxy named {@code
   * proxyName} (one that sits between Prometheus and the exporter) fails, with a 503 or a TCP
   * reset, for the whole fault. It is a toxic at 100%, on scrapes only: it touches no user traffic.
   */
  record ExporterDown(
      URI proxy,
      String proxyName,
      Mode mode,
      Optional<Duration> ttl,
      Optional<String> adminTokenEnv)
      implements FaultSpec {

    /** How a scrape fails. */
    public enum Mode {
      /** The proxy answers {@link HttpToxic#DEFAULT_STATUS} without calling the exporter. */
      ERROR,
      /** The proxy closes the scraper's connection with a TCP RST. */
      RESET;

      /** The name in files: {@code error} or {@code reset}. */
      public String text() {
        return name().toLowerCase(Locale.ROOT);
      }
    }

    public ExporterDown {
      Objects.requireNonNull(proxy, "proxy");
      Objects.requireNonNull(proxyName, "proxyName");
      mode = mode == null ? Mode.ERROR : mode;
      ttl = ttl == null ? Optional.empty() : ttl;
      adminTokenEnv = adminTokenEnv == null ? Optional.empty() : adminTokenEnv;
    }

    @Override
    public String kind() {
      return "exporter-down";
    }

    @Override
    public String target() {
      return "scrapes through proxy " + proxyName + " (" + proxy + ")";
    }

    @Override
    public String targetName() {
      return proxyName;
    }

    /** The toxic that does it: every request through the proxy fails, as {@link #mode} says. */
    public HttpToxic toxic() {
      HttpToxic.Effect effect =
          mode == Mode.ERROR
              ? new HttpToxic.Error(HttpToxic.DEFAULT_STATUS)
              : new HttpToxic.Reset();
      return new HttpToxic(proxy, proxyName, HttpToxic.DEFAULT_SHARE, effect, ttl, adminTokenEnv);
    }
  }
}
