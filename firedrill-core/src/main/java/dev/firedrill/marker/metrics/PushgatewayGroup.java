package dev.firedrill.marker.metrics;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * The URL of one Pushgateway group, {@code {base}/metrics/job/firedrill/experiment/<id>}. A value
 * that is not a plain path segment goes base64url-encoded behind a {@code @base64} suffix, as the
 * Pushgateway's README asks for values with a {@code /} (and an empty value, which is {@code =}).
 */
record PushgatewayGroup(URI url) {

  static final String JOB = "firedrill";
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]*");

  static PushgatewayGroup of(URI base, String experiment) {
    String root = base.toString().replaceAll("/+$", "");
    return new PushgatewayGroup(
        URI.create(root + "/metrics" + segment("job", JOB) + segment("experiment", experiment)));
  }

  static String segment(String label, String value) {
    if (PLAIN.matcher(value).matches()) {
      return "/" + label + "/" + value;
    }
    String encoded =
        value.isEmpty()
            ? "="
            : Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(value.getBytes(StandardCharsets.UTF_8));
    return "/" + label + "@base64/" + encoded;
  }
}
