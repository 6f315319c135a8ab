package dev.firedrill.engine;

import java.util.List;

/** Receives every event of a drill. A listener that throws never stops the drill or the others. */
public interface DrillListener {

  void onEvent(DrillEvent event);

  static DrillListener noop() {
    return event -> {};
  }

  static DrillListener composite(List<DrillListener> listeners) {
    List<DrillListener> copy = List.copyOf(listeners);
    return event -> {
      for (DrillListener listener : copy) {
        try {
          listener.onEvent(event);
        } catch (RuntimeException ignored) {
          // A console or sink failing must not decide whether faults are rolled back.
        }
      }
    };
  }
}
