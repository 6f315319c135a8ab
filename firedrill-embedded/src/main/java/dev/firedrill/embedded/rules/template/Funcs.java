package dev.firedrill.embedded.rules.template;

import dev.firedrill.format.GoFloat;
import dev.firedrill.format.GoQuote;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The functions a rule's template may call: Go's builtins the rules use and Prometheus's number
 * formatting, with Prometheus's outputs and error texts. {@code query} (and so {@code first},
 * {@code value}, {@code label}) is known, so rule files that use it load, but fails when called:
 * the embedded Prometheus does not run queries from templates.
 */
final class Funcs {

  private Funcs() {}

  /** A function failed; the template reports {@code error calling NAME: message}. */
  static final class CallError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CallError(String message) {
      super(message, null, false, false);
    }
  }

  enum Param {
    STRING,
    ANY
  }

  interface Body {
    Object call(List<Object> args);
  }

  /**
   * {@code params} are the fixed parameters; a variadic function takes any number of ANY after
   * them.
   */
  record Func(String name, List<Param> params, boolean variadic, Body body) {}

  /** {@code and}, {@code or}: evaluated by the executor, as Go short-circuits them. */
  static final Set<String> LAZY = Set.of("and", "or");

  private static final Pattern GO_FLOAT =
      Pattern.compile(
          "[+-]?(\\d++(?:\\.\\d*+)?|\\.\\d++)([eE][+-]?\\d++)?|(?i)[+-]?(inf|infinity|nan)");
  private static final String[] BIG = {"k", "M", "G", "T", "P", "E", "Z", "Y"};
  private static final String[] SMALL = {"m", "u", "n", "p", "f", "a", "z", "y"};
  private static final String[] BINARY = {"ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"};
  private static final DateTimeFormatter GO_TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");

  static final Map<String, Func> ALL =
      Map.ofEntries(
          one("humanize", Param.ANY, args -> humanize(toFloat(args.get(0)))),
          one("humanize1024", Param.ANY, args -> humanize1024(toFloat(args.get(0)))),
          one("humanizeDuration", Param.ANY, args -> humanizeDuration(toFloat(args.get(0)))),
          one("humanizePercentage", Param.ANY, args -> g4(toFloat(args.get(0)) * 100) + "%"),
          one("humanizeTimestamp", Param.ANY, args -> humanizeTimestamp(toFloat(args.get(0)))),
          one("toUpper", Param.STRING, args -> ((String) args.get(0)).toUpperCase(Locale.ROOT)),
          one("toLower", Param.STRING, args -> ((String) args.get(0)).toLowerCase(Locale.ROOT)),
          one("title", Param.STRING, args -> title((String) args.get(0))),
          one(
              "query",
              Param.STRING,
              args -> {
                throw new CallError(
                    "query is not supported by the embedded Prometheus's templates");
              }),
          one(
              "first",
              Param.ANY,
              args -> {
                throw new CallError(
                    "first needs query, which the embedded Prometheus's templates do not support");
              }),
          one(
              "value",
              Param.ANY,
              args -> {
                throw new CallError(
                    "value needs query, which the embedded Prometheus's templates do not support");
              }),
          entry(
              new Func(
                  "label",
                  List.of(Param.STRING, Param.ANY),
                  false,
                  args -> {
                    throw new CallError(
                        "label needs query, which the embedded Prometheus's templates do not support");
                  })),
          entry(
              new Func(
                  "printf",
                  List.of(Param.STRING),
                  true,
                  args -> Printf.format((String) args.get(0), args.subList(1, args.size())))),
          entry(new Func("print", List.of(), true, Funcs::sprint)),
          entry(new Func("println", List.of(), true, Funcs::sprintln)),
          entry(new Func("eq", List.of(Param.ANY), true, Compare::eq)),
          entry(new Func("ne", List.of(Param.ANY, Param.ANY), false, args -> !Compare.eq(args))),
          entry(
              new Func(
                  "lt",
                  List.of(Param.ANY, Param.ANY),
                  false,
                  args -> Compare.lt(args.get(0), args.get(1)))),
          entry(
              new Func(
                  "le",
                  List.of(Param.ANY, Param.ANY),
                  false,
                  args -> Compare.lt(args.get(0), args.get(1)) || Compare.eq(args))),
          entry(
              new Func(
                  "gt",
                  List.of(Param.ANY, Param.ANY),
                  false,
                  args -> !Compare.lt(args.get(0), args.get(1)) && !Compare.eq(args))),
          entry(
              new Func(
                  "ge",
                  List.of(Param.ANY, Param.ANY),
                  false,
                  args -> !Compare.lt(args.get(0), args.get(1)))),
          one("not", Param.ANY, args -> !GoValues.isTrue(args.get(0))),
          one("len", Param.ANY, args -> length(args.get(0))),
          entry(new Func("index", List.of(Param.ANY), true, Funcs::index)),
          entry(new Func("and", List.of(Param.ANY), true, args -> args.get(0))),
          entry(new Func("or", List.of(Param.ANY), true, args -> args.get(0))));

  private static Map.Entry<String, Func> one(String name, Param param, Body body) {
    return entry(new Func(name, List.of(param), false, body));
  }

  private static Map.Entry<String, Func> entry(Func func) {
    return Map.entry(func.name(), func);
  }

  /**
   * Prometheus's {@code ConvertToFloat}: numbers as they are, strings as Go's ParseFloat reads
   * them.
   */
  static double toFloat(Object value) {
    if (value instanceof Double d) {
      return d;
    } else if (value instanceof Long l) {
      return l;
    } else if (value instanceof String s) {
      if (!GO_FLOAT.matcher(s).matches()) {
        throw new CallError("strconv.ParseFloat: parsing " + GoQuote.of(s) + ": invalid syntax");
      }
      String lower = s.toLowerCase(Locale.ROOT);
      if (lower.endsWith("nan")) {
        return Double.NaN;
      }
      if (lower.endsWith("inf") || lower.endsWith("infinity")) {
        return s.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
      }
      return Double.parseDouble(s);
    }
    throw new CallError("can't convert " + GoValues.typeName(value) + " to float");
  }

  private static String g4(double v) {
    return GoFloat.format(v, 'g', 4);
  }

  static String humanize(double v) {
    if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) {
      return g4(v);
    }
    String prefix = "";
    if (Math.abs(v) >= 1) {
      for (String p : BIG) {
        if (Math.abs(v) < 1000) {
          break;
        }
        prefix = p;
        v /= 1000;
      }
      return g4(v) + prefix;
    }
    for (String p : SMALL) {
      if (Math.abs(v) >= 1) {
        break;
      }
      prefix = p;
      v *= 1000;
    }
    return g4(v) + prefix;
  }

  static String humanize1024(double v) {
    if (Math.abs(v) <= 1 || Double.isNaN(v) || Double.isInfinite(v)) {
      return g4(v);
    }
    String prefix = "";
    for (String p : BINARY) {
      if (Math.abs(v) < 1024) {
        break;
      }
      prefix = p;
      v /= 1024;
    }
    return g4(v) + prefix;
  }

  static String humanizeDuration(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return g4(v);
    }
    if (v == 0) {
      return g4(v) + "s";
    }
    if (Math.abs(v) >= 1) {
      String sign = v < 0 ? "-" : "";
      v = Math.abs(v);
      long duration = (long) v;
      long seconds = duration % 60;
      long minutes = (duration / 60) % 60;
      long hours = (duration / 60 / 60) % 24;
      long days = duration / 60 / 60 / 24;
      if (days != 0) {
        return sign + days + "d " + hours + "h " + minutes + "m " + seconds + "s";
      }
      if (hours != 0) {
        return sign + hours + "h " + minutes + "m " + seconds + "s";
      }
      if (minutes != 0) {
        return sign + minutes + "m " + seconds + "s";
      }
      return sign + g4(v) + "s";
    }
    String prefix = "";
    for (String p : SMALL) {
      if (Math.abs(v) >= 1) {
        break;
      }
      prefix = p;
      v *= 1000;
    }
    return g4(v) + prefix + "s";
  }

  /**
   * Go's {@code time.Time.String()} of the instant, at Prometheus's millisecond resolution, in UTC.
   */
  static String humanizeTimestamp(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return g4(v);
    }
    double nanos = v * 1e9;
    if (nanos > Long.MAX_VALUE || nanos < Long.MIN_VALUE) {
      throw new CallError(
          GoFloat.sprint(v)
              + " cannot be represented as a nanoseconds timestamp since it overflows int64");
    }
    long ms = (long) nanos / 1_000_000;
    Instant at = Instant.ofEpochMilli(ms);
    String fraction = "";
    int millis = at.getNano() / 1_000_000;
    if (millis != 0) {
      fraction = "." + String.format("%03d", millis).replaceAll("0+$", "");
    }
    return GO_TIME.format(at.atOffset(ZoneOffset.UTC)) + fraction + " +0000 UTC";
  }

  /**
   * {@code cases.Title} without lowering: the first letter of each word upper case, the rest kept.
   */
  static String title(String s) {
    StringBuilder out = new StringBuilder(s.length());
    boolean inWord = false;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      boolean wordChar = Character.isLetterOrDigit(cp) || cp == '\'' || cp == '_';
      out.appendCodePoint(!inWord && Character.isLetter(cp) ? Character.toTitleCase(cp) : cp);
      inWord = wordChar;
      i += Character.charCount(cp);
    }
    return out.toString();
  }

  /** {@code fmt.Sprint}: a space between operands when neither is a string. */
  private static String sprint(List<Object> args) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < args.size(); i++) {
      if (i > 0 && !(args.get(i) instanceof String) && !(args.get(i - 1) instanceof String)) {
        out.append(' ');
      }
      out.append(args.get(i) == null ? "<nil>" : GoValues.print(args.get(i)));
    }
    return out.toString();
  }

  private static String sprintln(List<Object> args) {
    List<String> parts = new ArrayList<>();
    args.forEach(a -> parts.add(a == null ? "<nil>" : GoValues.print(a)));
    return String.join(" ", parts) + "\n";
  }

  private static Object length(Object value) {
    if (value instanceof String s) {
      return (long) s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    } else if (value instanceof Map<?, ?> m) {
      return (long) m.size();
    }
    throw new CallError("len of type " + GoValues.typeName(value));
  }

  private static Object index(List<Object> args) {
    Object item = args.get(0);
    for (Object key : args.subList(1, args.size())) {
      if (!(item instanceof Map<?, ?> map)) {
        throw new CallError("can't index item of type " + GoValues.typeName(item));
      }
      if (!(key instanceof String)) {
        throw new CallError("value has type " + GoValues.typeName(key) + "; should be string");
      }
      Object found = map.get(key);
      item = found == null ? "" : found;
    }
    return item;
  }

  /** Go's {@code eq} and {@code lt} over the basic kinds. */
  static final class Compare {
    private Compare() {}

    static boolean eq(List<Object> args) {
      if (args.size() < 2) {
        throw new CallError("missing argument for comparison");
      }
      Object first = args.get(0);
      kind(first);
      for (Object other : args.subList(1, args.size())) {
        if (kind(other) != kind(first)) {
          throw new CallError("incompatible types for comparison");
        }
        boolean equal =
            first instanceof Double a ? a.doubleValue() == (Double) other : first.equals(other);
        if (equal) {
          return true;
        }
      }
      return false;
    }

    static boolean lt(Object a, Object b) {
      int ka = kind(a);
      int kb = kind(b);
      if (ka != kb) {
        throw new CallError("incompatible types for comparison");
      }
      if (a instanceof Long l) {
        return l < (Long) b;
      } else if (a instanceof Double d) {
        return d < (Double) b;
      } else if (a instanceof String s) {
        return s.compareTo((String) b) < 0;
      }
      throw new CallError("invalid type for comparison");
    }

    private static int kind(Object value) {
      if (value instanceof Boolean) {
        return 1;
      } else if (value instanceof Long) {
        return 2;
      } else if (value instanceof Double) {
        return 3;
      } else if (value instanceof String) {
        return 4;
      }
      throw new CallError("invalid type for comparison");
    }
  }
}
