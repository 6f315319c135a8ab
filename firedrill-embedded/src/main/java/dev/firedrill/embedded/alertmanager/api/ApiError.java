package dev.firedrill.embedded.alertmanager.api;

/** A request the API refuses: the HTTP status and the JSON body Alertmanager answers with. */
final class ApiError extends Exception {

  private static final long serialVersionUID = 1L;

  private final int status;
  private final String json;

  ApiError(int status, String json) {
    super(json);
    this.status = status;
    this.json = json;
  }

  /** go-swagger's error body: {@code {"code":C,"message":"..."}}. */
  static ApiError swagger(int status, int code, String message) {
    return new ApiError(status, "{\"code\":" + code + ",\"message\":" + Json.string(message) + "}");
  }

  /** Alertmanager's handlers' error body: the message as a JSON string. */
  static ApiError plain(int status, String message) {
    return new ApiError(status, Json.string(message));
  }

  int status() {
    return status;
  }

  String json() {
    return json;
  }
}
