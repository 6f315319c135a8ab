package dev.firedrill.http;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import javax.net.ssl.SSLException;

/**
 * Why an HTTP exchange never got an answer, in the words an operator acts on: the host name does
 * not resolve (fix the url or DNS), the connection was refused (nothing listens there), TLS failed,
 * the server closed without answering. Timeouts are the callers' to say, with their own limit. The
 * JDK's client wraps a name that does not resolve in a ConnectException, so the name is looked for
 * first: an unresolvable host must never read as a refused connection.
 */
public final class ConnectFailures {

  private ConnectFailures() {}

  /** The reason, or null when {@code cause} is none of these (the caller says it as it can). */
  public static String reason(Throwable cause) {
    UnknownHostException unknown = find(cause, UnknownHostException.class);
    if (unknown != null) {
      return "the host name does not resolve: unknown host"
          + (unknown.getMessage() == null ? "" : " " + unknown.getMessage());
    }
    if (find(cause, UnresolvedAddressException.class) != null) {
      return "the host name does not resolve: unknown host";
    }
    if (find(cause, ConnectException.class) != null) {
      return "connection refused";
    }
    SSLException tls = find(cause, SSLException.class);
    if (tls != null) {
      return "TLS failed: " + String.valueOf(tls.getMessage()).replaceAll("\\s+", " ");
    }
    if (cause instanceof IOException
        && cause.getMessage() != null
        && cause.getMessage().contains("header parser received no bytes")) {
      return "connection closed without a response";
    }
    return null;
  }

  /**
   * {@link #reason} when it knows one, else the exception's own message, else its kind: one line
   * for the console that never starts with a Java class name when there is a message to show.
   */
  public static String describe(Throwable cause) {
    String known = reason(cause);
    if (known != null) {
      return known;
    }
    String message = cause.getMessage();
    return message == null || message.isBlank()
        ? cause.getClass().getSimpleName()
        : message.replaceAll("\\s+", " ");
  }

  private static <T extends Throwable> T find(Throwable error, Class<T> type) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }
}
