package dev.firedrill.fault;

/**
 * A fault could not be planned, injected or reverted. The message is one line, naming what failed.
 */
public class FaultException extends Exception {
  private static final long serialVersionUID = 1L;

  public FaultException(String message) {
    super(message);
  }

  public FaultException(String message, Throwable cause) {
    super(message, cause);
  }
}
