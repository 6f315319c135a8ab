package dev.firedrill.embedded.api;

import dev.firedrill.format.GoQuote;
import dev.firedrill.promql.model.PromqlException;

/**
 * A request the API refuses or could not answer: Prometheus's {@code errorType} and its HTTP
 * status.
 */
final class ApiError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  enum Type {
    BAD_DATA("bad_data", 400),
    EXECUTION("execution", 422),
    CANCELED("canceled", 503),
    TIMEOUT("timeout", 503),
    INTERNAL("internal", 500);

    final String apiName;
    final int status;

    Type(String apiName, int status) {
      this.apiName = apiName;
      this.status = status;
    }
  }

  final Type type;

  ApiError(Type type, String message) {
    super(message);
    this.type = type;
  }

  static ApiError badData(String message) {
    return new ApiError(Type.BAD_DATA, message);
  }

  /** Prometheus's {@code invalidParamError}: {@code invalid parameter "time": ...}. */
  static ApiError invalidParameter(String parameter, String message) {
    return badData("invalid parameter " + GoQuote.of(parameter) + ": " + message);
  }

  /** An error of the evaluator, typed as Prometheus's {@code returnAPIError} types it. */
  static ApiError of(PromqlException e) {
    Type type =
        switch (e.errorType()) {
          case BAD_DATA -> Type.BAD_DATA;
          case EXECUTION -> Type.EXECUTION;
          case TIMEOUT -> Type.TIMEOUT;
          case CANCELED -> Type.CANCELED;
        };
    return new ApiError(type, e.getMessage());
  }
}
