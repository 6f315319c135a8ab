package dev.firedrill.embedded.rules.template;

import dev.firedrill.format.GoFloat;
import dev.firedrill.format.GoQuote;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Go's {@code fmt.Sprintf} for the verbs templates use: {@code %v %s %q %d %x %X %e %f %g %t %%},
 * with flags {@code + - 0 space}, width and precision. A verb that does not fit its argument prints
 * as Go prints it, {@code %!d(float64=1.5)}; missing and extra arguments as {@code %!d(MISSING)}
 * and {@code %!(EXTRA int=1)}.
 */
final class Printf {

  private Printf() {}

  static String format(String format, List<Object> args) {
    StringBuilder out = new StringBuilder();
    int arg = 0;
    int i = 0;
    while (i < format.length()) {
      char c = format.charAt(i);
      if (c != '%') {
        out.append(c);
        i++;
        continue;
      }
      i++;
      boolean minus = false;
      boolean plus = false;
      boolean zero = false;
      boolean space = false;
      for (; i < format.length(); i++) {
        char f = format.charAt(i);
        if (f == '-') {
          minus = true;
        } else if (f == '+') {
          plus = true;
        } else if (f == '0') {
          zero = true;
        } else if (f == ' ') {
          space = true;
        } else if (f != '#') {
          break;
        }
      }
      int width = -1;
      int start = i;
      while (i < format.length() && Character.isDigit(format.charAt(i))) {
        i++;
      }
      if (i > start) {
        width = Integer.parseInt(format.substring(start, i));
      }
      int precision = -1;
      if (i < format.length() && format.charAt(i) == '.') {
        i++;
        start = i;
        while (i < format.length() && Character.isDigit(format.charAt(i))) {
          i++;
        }
        precision = i > start ? Integer.parseInt(format.substring(start, i)) : 0;
      }
      if (i >= format.length()) {
        out.append("%!(NOVERB)");
        break;
      }
      char verb = format.charAt(i++);
      if (verb == '%') {
        out.append('%');
        continue;
      }
      if (arg >= args.size()) {
        out.append("%!").append(verb).append("(MISSING)");
        continue;
      }
      Object value = args.get(arg++);
      String text = verb(verb, value, precision, plus, space);
      if (text == null) {
        text = "%!" + verb + "(" + GoValues.typeName(value) + "=" + GoValues.print(value) + ")";
      }
      out.append(
          pad(
              text,
              width,
              minus,
              zero && !minus && (value instanceof Long || value instanceof Double)));
    }
    if (arg < args.size()) {
      out.append("%!(EXTRA ");
      for (int a = arg; a < args.size(); a++) {
        out.append(a > arg ? ", " : "")
            .append(GoValues.typeName(args.get(a)))
            .append('=')
            .append(GoValues.print(args.get(a)));
      }
      out.append(')');
    }
    return out.toString();
  }

  /** The argument formatted by the verb, or null when the verb does not fit the argument's type. */
  private static String verb(char verb, Object value, int precision, boolean plus, boolean space) {
    if (value instanceof Double d) {
      return switch (verb) {
        case 'v', 'g' -> sign(GoFloat.format(d, 'g', precision), plus, space);
        case 'G' -> sign(GoFloat.format(d, 'g', precision), plus, space).toUpperCase();
        case 'e' -> sign(GoFloat.format(d, 'e', precision < 0 ? 6 : precision), plus, space);
        case 'E' ->
            sign(GoFloat.format(d, 'e', precision < 0 ? 6 : precision), plus, space).toUpperCase();
        case 'f', 'F' -> sign(GoFloat.format(d, 'f', precision < 0 ? 6 : precision), plus, space);
        default -> null;
      };
    } else if (value instanceof Long l) {
      return switch (verb) {
        case 'v', 'd' -> sign(Long.toString(l), plus, space);
        case 'x' -> Long.toHexString(l);
        case 'X' -> Long.toHexString(l).toUpperCase();
        case 'c' -> new String(Character.toChars((int) (long) l));
        case 'q' -> "'" + new String(Character.toChars((int) (long) l)) + "'";
        default -> null;
      };
    } else if (value instanceof String s) {
      return switch (verb) {
        case 'v', 's' -> precision >= 0 && precision < s.length() ? s.substring(0, precision) : s;
        case 'q' -> GoQuote.of(s);
        case 'x', 'X' -> hex(s, verb == 'X');
        default -> null;
      };
    } else if (value instanceof Boolean b) {
      return verb == 'v' || verb == 't' ? b.toString() : null;
    }
    return verb == 'v' || verb == 's' ? GoValues.print(value) : null;
  }

  private static String sign(String number, boolean plus, boolean space) {
    if (number.startsWith("-") || number.startsWith("+")) {
      return number; // Go keeps the + of +Inf even without the + flag
    }
    return plus ? "+" + number : space ? " " + number : number;
  }

  private static String pad(String text, int width, boolean left, boolean zeros) {
    int missing = width - text.codePointCount(0, text.length());
    if (missing <= 0) {
      return text;
    }
    if (left) {
      return text + " ".repeat(missing);
    }
    if (zeros && !text.endsWith("Inf") && !text.equals("NaN")) {
      boolean signed = text.startsWith("-") || text.startsWith("+") || text.startsWith(" ");
      return signed
          ? text.charAt(0) + "0".repeat(missing) + text.substring(1)
          : "0".repeat(missing) + text;
    }
    return " ".repeat(missing) + text;
  }

  private static String hex(String s, boolean upper) {
    StringBuilder out = new StringBuilder();
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      out.append(String.format(upper ? "%02X" : "%02x", b));
    }
    return out.toString();
  }
}
