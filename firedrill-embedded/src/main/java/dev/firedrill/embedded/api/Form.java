package dev.firedrill.embedded.api;

import dev.firedrill.format.GoQuote;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A request's parameters as Go's {@code r.Form}: a form-encoded POST body's values first, then the
 * URL's query, so {@link #first} is Go's {@code FormValue}.
 */
final class Form {

  private final Map<String, List<String>> values = new LinkedHashMap<>();

  static Form of(String rawQuery, String body) {
    Form form = new Form();
    form.add(body);
    form.add(rawQuery);
    return form;
  }

  /** The first value, or the empty string when there is none (as Go's {@code FormValue}). */
  String first(String name) {
    List<String> all = values.get(name);
    return all == null ? "" : all.get(0);
  }

  List<String> all(String name) {
    return values.getOrDefault(name, List.of());
  }

  private void add(String encoded) {
    if (encoded == null || encoded.isEmpty()) {
      return;
    }
    for (String pair : encoded.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      values.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
    }
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw ApiError.badData(
          "error parsing form values: invalid URL escape in " + GoQuote.of(text));
    }
  }
}
