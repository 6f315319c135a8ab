package dev.firedrill.prometheus;

/** Text squeezed onto one line, for messages. */
final class OneLine {

  static final int BODY_LIMIT = 200;

  private OneLine() {}

  static String of(String text) {
    return text == null ? "" : text.strip().replaceAll("\\s+", " ");
  }

  static String shortened(String text, int limit) {
    String line = of(text);
    return line.length() <= limit ? line : line.substring(0, limit) + "...";
  }
}
