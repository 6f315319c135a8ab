package dev.firedrill.embedded.api;

import java.util.Map;

/**
 * A JSON text written front to back, escaped as Go's {@code encoding/json} escapes (HTML-safe:
 * {@code <}, {@code >} and {@code &} as {@code \u003c}, ...), so answers match Prometheus's bytes.
 */
final class Json {

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private final StringBuilder out = new StringBuilder(256);
  private boolean comma;

  Json beginObject() {
    separate();
    out.append('{');
    comma = false;
    return this;
  }

  Json endObject() {
    out.append('}');
    comma = true;
    return this;
  }

  Json beginArray() {
    separate();
    out.append('[');
    comma = false;
    return this;
  }

  Json endArray() {
    out.append(']');
    comma = true;
    return this;
  }

  Json name(String name) {
    separate();
    quote(name);
    out.append(':');
    comma = false;
    return this;
  }

  Json string(String value) {
    separate();
    quote(value);
    comma = true;
    return this;
  }

  /** A number or literal already in JSON form. */
  Json raw(String json) {
    separate();
    out.append(json);
    comma = true;
    return this;
  }

  /** A map of strings, keys sorted as Go sorts a map's keys (the caller's map must be sorted). */
  Json strings(Map<String, String> map) {
    beginObject();
    map.forEach((k, v) -> name(k).string(v));
    return endObject();
  }

  @Override
  public String toString() {
    return out.toString();
  }

  private void separate() {
    if (comma) {
      out.append(',');
    }
  }

  private void quote(String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '<', '>', '&', '\u2028', '\u2029' -> unicode(c);
        default -> {
          if (c < 0x20) {
            unicode(c);
          } else if (Character.isSurrogate(c)) {
            // Go writes invalid UTF-8 as U+FFFD; a lone surrogate is Java's equivalent.
            if (Character.isHighSurrogate(c)
                && i + 1 < s.length()
                && Character.isLowSurrogate(s.charAt(i + 1))) {
              out.append(c).append(s.charAt(++i));
            } else {
              out.append('\ufffd');
            }
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private void unicode(char c) {
    out.append("\\u")
        .append(HEX[c >> 12 & 0xf])
        .append(HEX[c >> 8 & 0xf])
        .append(HEX[c >> 4 & 0xf])
        .append(HEX[c & 0xf]);
  }
}
