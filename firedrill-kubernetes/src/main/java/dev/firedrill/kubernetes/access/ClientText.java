package dev.firedrill.kubernetes.access;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The words the Kubernetes faults print: a client error and a kubectl command a human can paste.
 */
public final class ClientText {

  /** The credentials the clients were given: never in a message, whatever the server echoes. */
  private static final Set<String> SECRETS = ConcurrentHashMap.newKeySet();

  private ClientText() {}

  /** {@code secret} (a kubeconfig's token or password) is replaced in every message from now on. */
  static void hide(String secret) {
    if (secret != null && !secret.isBlank()) {
      SECRETS.add(secret.strip());
    }
  }

  /**
   * The client's message cut to its first line: a status and a URL, never a header (the lines after
   * may echo a request); without the status object the client appends, which repeats the server's
   * message; and with every credential the clients were given replaced, since a server may quote
   * the one it refused. Redacted before it is cut, so a cut never leaves a piece of one.
   */
  public static String safe(KubernetesClientException e) {
    String message = redact(String.valueOf(e.getMessage()));
    int newline = message.indexOf('\n');
    String line = (newline < 0 ? message : message.substring(0, newline)).strip();
    int status = line.indexOf(" Received status: ");
    return status < 0 ? line : line.substring(0, status);
  }

  static String redact(String text) {
    String result = text;
    for (String secret :
        SECRETS.stream().sorted(Comparator.comparingInt(String::length).reversed()).toList()) {
      result = result.replace(secret, "<redacted>");
    }
    return result;
  }

  /** An argument list as a shell line, quoting what the shell would split. */
  public static String shell(List<String> argv) {
    return argv.stream()
        .map(a -> a.matches("[A-Za-z0-9_./=:,-]+") ? a : "'" + a.replace("'", "'\\''") + "'")
        .collect(Collectors.joining(" "));
  }
}
