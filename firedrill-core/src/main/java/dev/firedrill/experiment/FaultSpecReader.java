package dev.firedrill.experiment;

import java.util.List;
import java.util.ServiceLoader;

/**
 * Reads one entry of {@code method.faults}. The fault kinds live above this package (each also
 * builds its fault), so the loader finds their reader as a service: {@code
 * dev.firedrill.fault.FaultKinds} provides it, and finds the kinds themselves as services of their
 * own.
 */
public interface FaultSpecReader {

  /**
   * The spec the entry (a mapping) describes, or null when something is wrong with it: then its
   * problems are recorded on the entry, by the pointer and line of the key they concern.
   */
  FaultSpec read(Node entry);

  /**
   * The one reader on the class path; none or two is a packaging mistake, not a problem of the
   * file.
   */
  static FaultSpecReader installed() {
    List<FaultSpecReader> readers =
        ServiceLoader.load(FaultSpecReader.class, FaultSpecReader.class.getClassLoader()).stream()
            .map(ServiceLoader.Provider::get)
            .toList();
    if (readers.size() != 1) {
      throw new IllegalStateException(
          "expected one "
              + FaultSpecReader.class.getName()
              + " on the class path (listed"
              + " in META-INF/services, as the fault module does), found "
              + readers.size());
    }
    return readers.get(0);
  }
}
