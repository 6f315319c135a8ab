package dev.firedrill.network;

import dev.firedrill.experiment.Node;
import java.time.Duration;
import java.util.Optional;

/** What every network kind reads alike, and how durations are written for nft and tc. */
public final class NetworkFields {

  private NetworkFields() {}

  /** The entry's {@code namespace}: a network namespace's name; absent is the host's own. */
  public static Netns namespace(Node entry) {
    String name =
        entry
            .get("namespace")
            .text(
                Netns.NAME,
                "expected the name of a network namespace (letters, digits, '.', '_', '-'), as ip"
                    + " netns list shows it, such as app");
    return new Netns(Optional.ofNullable(name));
  }

  /**
   * A duration as nft's timeouts and tc's options read it: whole seconds, milliseconds or
   * microseconds.
   */
  public static String time(Duration duration) {
    long micros = duration.toNanos() / 1000;
    if (micros % 1_000_000 == 0) {
      return (micros / 1_000_000) + "s";
    }
    return micros % 1000 == 0 ? (micros / 1000) + "ms" : micros + "us";
  }
}
