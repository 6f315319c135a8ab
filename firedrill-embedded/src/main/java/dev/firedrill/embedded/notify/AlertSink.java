package dev.firedrill.embedded.notify;

import java.util.List;

/**
 * Where rule evaluation hands alerts to send; it must return at once, never waiting on the network.
 */
@FunctionalInterface
public interface AlertSink {

  void send(List<OutgoingAlert> alerts);

  AlertSink NONE = alerts -> {};
}
