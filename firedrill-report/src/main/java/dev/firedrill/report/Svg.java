package dev.firedrill.report;

import java.util.Locale;

/** A minimal SVG writer: elements with escaped attributes and text, coordinates to one decimal. */
final class Svg {

  private final StringBuilder out = new StringBuilder();

  /** {@code attributes} alternate name and value; values are escaped. */
  Svg open(String element, String... attributes) {
    out.append('<').append(element);
    attributes(attributes);
    out.append(">\n");
    return this;
  }

  Svg close(String element) {
    out.append("</").append(element).append(">\n");
    return this;
  }

  Svg empty(String element, String... attributes) {
    out.append('<').append(element);
    attributes(attributes);
    out.append("/>\n");
    return this;
  }

  /** An element holding escaped text. */
  Svg text(String element, String text, String... attributes) {
    out.append('<').append(element);
    attributes(attributes);
    out.append('>').append(Escape.xml(text)).append("</").append(element).append(">\n");
    return this;
  }

  /** Escaped text with a tooltip: a short label whose whole text is in its {@code <title>}. */
  Svg label(String text, String title, String... attributes) {
    out.append("<text");
    attributes(attributes);
    out.append("><title>")
        .append(Escape.xml(title))
        .append("</title>")
        .append(Escape.xml(text))
        .append("</text>\n");
    return this;
  }

  /** A shape with a {@code <title>} child, which browsers show as a tooltip. */
  Svg titled(String element, String title, String... attributes) {
    out.append('<').append(element);
    attributes(attributes);
    out.append("><title>")
        .append(Escape.xml(title))
        .append("</title></")
        .append(element)
        .append(">\n");
    return this;
  }

  static String num(double value) {
    return String.format(Locale.ROOT, "%.1f", value);
  }

  @Override
  public String toString() {
    return out.toString();
  }

  private void attributes(String[] attributes) {
    for (int i = 0; i + 1 < attributes.length; i += 2) {
      out.append(' ')
          .append(attributes[i])
          .append("=\"")
          .append(Escape.xml(attributes[i + 1]))
          .append('"');
    }
  }
}
