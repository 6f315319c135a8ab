package dev.firedrill.report;

/** Text into HTML and XML: every character that could end an attribute or open a tag. */
final class Escape {

  private Escape() {}

  static String xml(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> {
          // XML 1.0 forbids most control characters even as references; a journal may carry them in
          // a reason.
          if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            out.append('?');
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
