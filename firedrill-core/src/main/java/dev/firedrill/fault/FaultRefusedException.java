package dev.firedrill.fault;

/** The blast radius forbids the fault (too many targets, too many workers, a match too short). */
public class FaultRefusedException extends FaultException {

  public FaultRefusedException(String message) {
    super(message);
  }
}
