package dev.firedrill.fault;

import dev.firedrill.experiment.Node;
import dev.firedrill.experiment.Numbers;
import java.net.URI;
import java.util.regex.Pattern;

/**
 * What several fault kinds read alike: the share of what they touch, and the fault proxy they act
 * through.
 */
final class FaultFields {

  private static final Pattern PROXY_NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");

  private FaultFields() {}

  /**
   * The entry's {@code share} of the {@code what} it touches. The older key {@code percent} is kept
   * only where it cannot be misread, as a percentage string ({@code "20%"}): a bare number there
   * once meant a percentage ({@code 0.2} was 0.2%) while every other share is a fraction, so it is
   * refused, naming both readings.
   */
  static Double share(Node entry, String what) {
    Node shareNode = entry.get("share");
    Node percentNode = entry.get("percent");
    if (shareNode.present() && percentNode.present()) {
      percentNode.problem(
          "share and percent say the same thing; keep share, such as 0.05 or \"5%\" of the "
              + what);
      return null;
    }
    if (!percentNode.present() || percentNode.percentString()) {
      return (shareNode.present() ? shareNode : percentNode).share();
    }
    Double bare = percentNode.number();
    if (bare == null || !(bare > 0 && bare <= 100)) {
      return bare == null ? null : percentNode.fail(Node.SHARE);
    }
    String raw = percentNode.raw();
    String fraction = Numbers.format(bare / 100);
    percentNode.problem(
        "a bare number is ambiguous here: every share is a fraction (0.2 is 20%) or a percentage"
            + " string; did you mean "
            + (bare > 1
                ? "\"" + raw + "%\" (share: " + fraction + ")"
                : "share: "
                    + raw
                    + " ("
                    + Numbers.format(bare * 100)
                    + "% of the "
                    + what
                    + ") or \""
                    + raw
                    + "%\"")
            + "?");
    return null;
  }

  /**
   * The admin API of the fault proxy, required; {@code why} says what it is, ending with an example
   * URL.
   */
  static URI proxy(Node entry, String kind, String why, String example) {
    return entry
        .get("proxy")
        .required(kind + " needs proxy: " + why + ", such as " + example)
        .url(example, "use admin_token_env");
  }

  /** The name of a proxy on that API, such as {@code example}. */
  static String proxyName(Node node, String example) {
    return node.text(
        PROXY_NAME,
        "expected a proxy name of letters, digits, '.', '_' and '-', such as " + example);
  }

  /** Where the proxy's admin token is read from, if it wants one. */
  static String adminTokenEnv(Node entry) {
    return entry.get("admin_token_env").variable("PROXY_TOKEN");
  }
}
