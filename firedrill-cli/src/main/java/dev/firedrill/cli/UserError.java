package dev.firedrill.cli;

/** A failure the user can act on: printed as its message alone, with its exit code. */
final class UserError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int exitCode;

  UserError(String message, int exitCode) {
    super(message);
    this.exitCode = exitCode;
  }

  UserError(String message, int exitCode, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
