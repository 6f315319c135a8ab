package dev.firedrill.promql.conformance;

import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.StaleNaN;
import java.util.ArrayList;
import java.util.List;

/**
 * A series line of a test script, {@code metric{label="value"} 0+10x3 _ stale}: Prometheus's series
 * description. A value of null is an omitted sample ({@code _}).
 */
record SeriesLine(LabelSet labels, List<Double> values) {

  static SeriesLine parse(String line) {
    Cursor c = new Cursor(line.trim());
    LabelSet labels = c.metric();
    return new SeriesLine(labels, values(c.rest()));
  }

  /** The expanding notation: {@code a+bxn} is n+1 values from a, adding b each time, as Go adds. */
  static List<Double> values(String text) {
    List<Double> values = new ArrayList<>();
    for (String item : text.trim().split("\\s+")) {
      if (item.isEmpty()) {
        continue;
      }
      if (item.equals("_")) {
        values.add(null);
        continue;
      }
      if (item.startsWith("_x")) {
        int n = Integer.parseInt(item.substring(2));
        for (int i = 0; i < n; i++) {
          values.add(null);
        }
        continue;
      }
      Cursor c = new Cursor(item);
      double v = c.value();
      if (c.done()) {
        values.add(v);
        continue;
      }
      double delta = 0;
      if (c.peek() == '+' || c.peek() == '-') {
        delta = c.signedNumber();
      }
      c.expect('x');
      int n = Integer.parseInt(c.rest());
      for (int i = 0; i <= n; i++) {
        values.add(v);
        v += delta;
      }
    }
    return values;
  }

  /** Go's strconv.Unquote for a double-, single- or back-quoted string. */
  static String unquote(String quoted) {
    Cursor c = new Cursor(quoted);
    String s = c.quoted();
    if (!c.done()) {
      throw new IllegalArgumentException("text after the closing quote in " + quoted);
    }
    return s;
  }

  private static final class Cursor {
    private final String s;
    private int pos;

    Cursor(String s) {
      this.s = s;
    }

    boolean done() {
      return pos >= s.length();
    }

    char peek() {
      return s.charAt(pos);
    }

    String rest() {
      return s.substring(pos);
    }

    void expect(char ch) {
      if (done() || s.charAt(pos) != ch) {
        throw new IllegalArgumentException("expected '" + ch + "' at " + pos + " in " + s);
      }
      pos++;
    }

    void skipSpace() {
      while (!done() && Character.isWhitespace(peek())) {
        pos++;
      }
    }

    LabelSet metric() {
      LabelSet.Builder b = LabelSet.builder();
      String name = identifier();
      if (!name.isEmpty()) {
        b.set(LabelSet.METRIC_NAME, name);
      }
      if (!done() && peek() == '{') {
        pos++;
        while (true) {
          skipSpace();
          if (peek() == '}') {
            pos++;
            break;
          }
          String label = peek() == '"' ? quoted() : identifier();
          skipSpace();
          if (peek() == '=') {
            pos++;
            skipSpace();
            b.set(label, quoted());
          } else {
            b.set(LabelSet.METRIC_NAME, label);
          }
          skipSpace();
          if (peek() == ',') {
            pos++;
          }
        }
      } else if (name.isEmpty()) {
        throw new IllegalArgumentException("no series in " + s);
      }
      return b.build();
    }

    private String identifier() {
      int from = pos;
      while (!done() && (Character.isLetterOrDigit(peek()) || peek() == '_' || peek() == ':')) {
        pos++;
      }
      return s.substring(from, pos);
    }

    String quoted() {
      char q = s.charAt(pos++);
      if (q != '"' && q != '\'' && q != '`') {
        throw new IllegalArgumentException("expected a quoted string at " + (pos - 1) + " in " + s);
      }
      StringBuilder out = new StringBuilder();
      while (true) {
        char ch = s.charAt(pos++);
        if (ch == q) {
          return out.toString();
        }
        if (ch != '\\' || q == '`') {
          out.append(ch);
          continue;
        }
        char e = s.charAt(pos++);
        switch (e) {
          case 'n' -> out.append('\n');
          case 't' -> out.append('\t');
          case 'r' -> out.append('\r');
          case 'a' -> out.append('\007');
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'v' -> out.append('\013');
          case 'x' -> {
            out.append((char) Integer.parseInt(s.substring(pos, pos + 2), 16));
            pos += 2;
          }
          case 'u' -> {
            out.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
            pos += 4;
          }
          case 'U' -> {
            out.appendCodePoint(Integer.parseInt(s.substring(pos, pos + 8), 16));
            pos += 8;
          }
          default -> {
            if (e >= '0' && e <= '7') {
              out.append((char) Integer.parseInt(s.substring(pos - 1, pos + 2), 8));
              pos += 2;
            } else {
              out.append(e);
            }
          }
        }
      }
    }

    /** A value: a number, signed or not, Inf, NaN or stale. */
    double value() {
      if (s.startsWith("stale", pos)) {
        pos += 5;
        return StaleNaN.VALUE;
      }
      if (peek() == '+' || peek() == '-') {
        return signedNumber();
      }
      return number();
    }

    double signedNumber() {
      char sign = s.charAt(pos++);
      double n = number();
      return sign == '-' ? -n : n;
    }

    private double number() {
      for (String word : new String[] {"Inf", "NaN"}) {
        if (s.regionMatches(true, pos, word, 0, 3)) {
          pos += 3;
          return word.equals("Inf") ? Double.POSITIVE_INFINITY : Double.NaN;
        }
      }
      int from = pos;
      while (!done() && (Character.isDigit(peek()) || peek() == '.')) {
        pos++;
      }
      if (!done() && (peek() == 'e' || peek() == 'E')) {
        pos++;
        if (!done() && (peek() == '+' || peek() == '-')) {
          pos++;
        }
        while (!done() && Character.isDigit(peek())) {
          pos++;
        }
      }
      if (from == pos) {
        throw new IllegalArgumentException("expected a number at " + pos + " in " + s);
      }
      return Double.parseDouble(s.substring(from, pos));
    }
  }
}
