package dev.firedrill.cli;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * URLs given on the command line: credentials in one ({@code http://user:password@host}) are
 * refused without the value being shown, since it would reach the console, a generated file or a
 * journal; they come from an environment variable or a file instead. Anything with an {@code @}
 * before the path counts, a URL too malformed to parse included: its error would quote it.
 */
final class UrlOptions {

  private UrlOptions() {}

  /**
   * {@code text}, refused as {@code COMMAND: OPTION: credentials in the URL are refused} when its
   * authority holds an {@code @}.
   */
  static String refuseUserInfo(String command, String option, String text) {
    if (text != null && hasUserInfo(text)) {
      throw new UserError(
          command
              + ": "
              + option
              + ": credentials in the URL are refused (the value is not shown); give them from an"
              + " environment variable or a file",
          ExitCode.INVALID);
    }
    return text;
  }

  static boolean hasUserInfo(String text) {
    try {
      URI uri = new URI(text.strip());
      if (uri.getRawUserInfo() != null) {
        return true;
      }
    } catch (URISyntaxException e) {
      // judged by its text below
    }
    int start = text.indexOf("//");
    String rest = start < 0 ? text : text.substring(start + 2);
    int end = rest.length();
    for (char c : new char[] {'/', '?', '#'}) {
      int at = rest.indexOf(c);
      if (at >= 0 && at < end) {
        end = at;
      }
    }
    return rest.substring(0, end).contains("@");
  }
}
