package dev.firedrill.fault;

/** The blast radius forbids the fault (too many targets, too many workers, a match too short). */
public class FaultRefusedException extends FaultException {
  private static final long serialVersionUID = 1L;

  public FaultRefusedException(String message) {
    super(message);
  }
}
