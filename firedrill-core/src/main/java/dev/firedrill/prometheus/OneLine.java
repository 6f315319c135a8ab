package dev.firedrill.prometheus;

import dev.firedrill.format.Shorten;

/** Text squeezed onto one line, for messages. */
final class OneLine {

  static final int BODY_LIMIT = 200;

  private OneLine() {}

  static String of(String text) {
    return text == null ? "" : text.strip().replaceAll("\\s+", " ");
  }

  static String shortened(String text, int limit) {
    return Shorten.cut(of(text), limit);
  }
}
