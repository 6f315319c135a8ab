package dev.firedrill.promql.model;

/**
 * A query that could not run. The type maps to Prometheus's API {@code errorType}: a parse or type
 * error is {@code bad_data} (HTTP 400), a failure while evaluating is {@code execution} (HTTP 422),
 * a query past its deadline is {@code timeout} (HTTP 503).
 */
public class PromqlException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public enum ErrorType {
    BAD_DATA("bad_data"),
    EXECUTION("execution"),
    TIMEOUT("timeout"),
    CANCELED("canceled");

    private final String apiName;

    ErrorType(String apiName) {
      this.apiName = apiName;
    }

    public String apiName() {
      return apiName;
    }
  }

  private final ErrorType errorType;

  public PromqlException(ErrorType errorType, String message) {
    super(message);
    this.errorType = errorType;
  }

  public ErrorType errorType() {
    return errorType;
  }
}
