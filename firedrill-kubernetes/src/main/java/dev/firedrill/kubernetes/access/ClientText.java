package dev.firedrill.kubernetes.access;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The words the Kubernetes faults print: a client error and a kubectl command a human can paste.
 */
public final class ClientText {

  private ClientText() {}

  /**
   * The client's message cut to its first line: a status and a URL, never a header (the lines after
   * may echo a request).
   */
  public static String safe(KubernetesClientException e) {
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return (newline < 0 ? message : message.substring(0, newline)).strip();
  }

  /** An argument list as a shell line, quoting what the shell would split. */
  public static String shell(List<String> argv) {
    return argv.stream()
        .map(a -> a.matches("[A-Za-z0-9_./=:,-]+") ? a : "'" + a.replace("'", "'\\''") + "'")
        .collect(Collectors.joining(" "));
  }
}
