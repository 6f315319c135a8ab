package dev.firedrill.history;

/**
 * The history store or a journal could not be read or written; the message is one line naming
 * which.
 */
public final class HistoryException extends Exception {
  private static final long serialVersionUID = 1L;

  public HistoryException(String message) {
    super(message);
  }

  public HistoryException(String message, Throwable cause) {
    super(message, cause);
  }
}
