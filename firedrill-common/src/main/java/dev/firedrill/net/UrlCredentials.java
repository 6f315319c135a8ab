package dev.firedrill.net;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Whether a URL's text carries credentials ({@code http://user:password@host}): the one test for
 * every URL firedrill reads, from a file, an option or the environment, since such a URL would
 * reach the console, a generated file or a journal. Anything with an {@code @} before the path
 * counts, a URL too malformed to parse included (its error would quote it).
 */
public final class UrlCredentials {

  private UrlCredentials() {}

  public static boolean present(String text) {
    try {
      if (new URI(text.strip()).getRawUserInfo() != null) {
        return true;
      }
    } catch (URISyntaxException e) {
      // judged by its text below
    }
    int start = text.indexOf("//");
    String rest = start < 0 ? text : text.substring(start + 2);
    return rest.split("[/?#]", 2)[0].contains("@");
  }
}
