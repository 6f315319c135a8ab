package dev.firedrill.proxy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a toxic does, with its Toxiproxy-style attributes (milliseconds, KB/s). */
public sealed interface ToxicKind {

  /** Every type the admin API accepts, in the order listings and metrics show them. */
  List<String> TYPES = List.of("latency", "error", "reset", "timeout", "bandwidth");

  /** The type as the admin API and the metrics name it. */
  String type();

  /** The attributes as the admin API shows them. */
  Map<String, Object> attributes();

  /** Adds {@code latency} milliseconds, plus or minus up to {@code jitter}. */
  record Latency(long latency, long jitter) implements ToxicKind {
    public Latency {
      if (latency < 0 || jitter < 0) {
        throw new IllegalArgumentException("latency and jitter must be at least 0 ms");
      }
    }

    @Override
    public String type() {
      return "latency";
    }

    @Override
    public Map<String, Object> attributes() {
      Map<String, Object> attributes = new LinkedHashMap<>();
      attributes.put("latency", latency);
      attributes.put("jitter", jitter);
      return attributes;
    }
  }

  /** Answers {@code status} without calling upstream (HTTP mode only). */
  record Error(int status) implements ToxicKind {
    public Error {
      if (status < 400 || status > 599) {
        throw new IllegalArgumentException("status must be an HTTP error status, 400 to 599");
      }
    }

    @Override
    public String type() {
      return "error";
    }

    @Override
    public Map<String, Object> attributes() {
      return Map.of("status", status);
    }
  }

  /** Closes the client's connection with a TCP RST. */
  record Reset() implements ToxicKind {
    @Override
    public String type() {
      return "reset";
    }

    @Override
    public Map<String, Object> attributes() {
      return Map.of();
    }
  }

  /**
   * Holds the request without answering; after {@code timeout} milliseconds the connection is
   * closed. 0 holds until the toxic is removed (then the request goes on) or the client gives up.
   */
  record Timeout(long timeout) implements ToxicKind {
    public Timeout {
      if (timeout < 0) {
        throw new IllegalArgumentException("timeout must be at least 0 ms");
      }
    }

    @Override
    public String type() {
      return "timeout";
    }

    @Override
    public Map<String, Object> attributes() {
      return Map.of("timeout", timeout);
    }
  }

  /** Limits throughput to {@code rate} KB/s (1 KB = 1000 bytes, as Toxiproxy counts). */
  record Bandwidth(long rate) implements ToxicKind {
    public Bandwidth {
      if (rate < 1) {
        throw new IllegalArgumentException("rate must be at least 1 KB/s");
      }
    }

    @Override
    public String type() {
      return "bandwidth";
    }

    @Override
    public Map<String, Object> attributes() {
      return Map.of("rate", rate);
    }

    long bytesPerSecond() {
      return rate * 1000;
    }
  }
}
