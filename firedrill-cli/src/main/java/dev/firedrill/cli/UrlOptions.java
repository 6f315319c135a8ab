package dev.firedrill.cli;

import dev.firedrill.net.UrlCredentials;

/**
 * URLs given on the command line: credentials in one ({@code http://user:password@host}) are
 * refused without the value being shown, since it would reach the console, a generated file or a
 * journal; they come from an environment variable or a file instead ({@link UrlCredentials}).
 */
final class UrlOptions {

  private UrlOptions() {}

  /**
   * {@code text}, refused as {@code COMMAND: OPTION: credentials in the URL are refused} when its
   * authority holds an {@code @}.
   */
  static String refuseUserInfo(String command, String option, String text) {
    if (text != null && UrlCredentials.present(text)) {
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
}
