package dev.firedrill.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The one scan for a leaked secret: every file under the given folders (journal, events, spans,
 * reports, logs, history) and every text given (console output), for the secret as it is, in the
 * forms it travels in (percent-encoded, JSON-escaped, base64 as in basic auth), and for any {@value
 * #WINDOW}-character piece of it (a value cut before it was redacted leaked its start).
 */
public final class SecretScan {

  /** A piece this long of a secret, found anywhere, is a leak. */
  public static final int WINDOW = 12;

  private SecretScan() {}

  /** Where {@code secret} shows, as {@code PLACE: FORM}; empty when nowhere. */
  public static List<String> findings(String secret, List<Path> roots, Map<String, String> texts) {
    if (secret.length() < WINDOW) {
      throw new IllegalArgumentException(
          "a recognisable secret has at least " + WINDOW + " characters");
    }
    Set<String> needles = forms(secret);
    List<String> found = new ArrayList<>();
    for (Path root : roots) {
      try (Stream<Path> files = Files.walk(root)) {
        for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
          String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
          String utf8 = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
          for (String needle : needles) {
            if (text.contains(needle) || utf8.contains(needle)) {
              found.add(file + ": " + needle);
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot scan " + root + ": " + e.getMessage(), e);
      }
    }
    texts.forEach(
        (place, text) -> {
          for (String needle : needles) {
            if (text.contains(needle)) {
              found.add(place + ": " + needle);
            }
          }
        });
    return found;
  }

  /** Fails naming every place where {@code secret} shows. */
  public static void assertNowhere(String secret, List<Path> roots, Map<String, String> texts) {
    List<String> found = findings(secret, roots, texts);
    if (!found.isEmpty()) {
      throw new AssertionError(
          "the secret leaked into " + found.size() + " places:\n  " + String.join("\n  ", found));
    }
  }

  /** The secret's pieces and the forms it travels in. */
  static Set<String> forms(String secret) {
    Set<String> forms = new LinkedHashSet<>();
    for (int i = 0; i + WINDOW <= secret.length(); i++) {
      forms.add(secret.substring(i, i + WINDOW));
    }
    forms.add(URLEncoder.encode(secret, StandardCharsets.UTF_8));
    forms.add(secret.replace("\\", "\\\\").replace("\"", "\\\""));
    String base64 = Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8));
    forms.add(base64.substring(0, Math.min(base64.length(), 16)));
    for (String user : List.of("firedrill:", "user:", "admin:")) {
      forms.add(
          Base64.getEncoder()
              .encodeToString((user + secret).getBytes(StandardCharsets.UTF_8))
              .substring(8, 24));
    }
    return forms;
  }
}
