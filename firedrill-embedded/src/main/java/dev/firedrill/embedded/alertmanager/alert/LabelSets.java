package dev.firedrill.embedded.alertmanager.alert;

import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeSet;

/**
 * Label sets as Prometheus' Go model handles them: fingerprints, printing, and the order of alerts.
 */
public final class LabelSets {

  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;
  private static final int SEPARATOR = 0xff;

  /**
   * Alertmanager's {@code AlertSlice} order: by {@code job}, then {@code instance} (an alert with
   * the label before one without), then {@link #before}.
   */
  public static final Comparator<SortedMap<String, String>> ALERT_ORDER = LabelSets::compareAlerts;

  private LabelSets() {}

  /**
   * {@code model.LabelSet.Fingerprint()}: FNV-1a over the sorted names and values, each followed by
   * 0xff.
   */
  public static long fingerprint(SortedMap<String, String> labels) {
    long hash = FNV_OFFSET;
    for (Map.Entry<String, String> label : labels.entrySet()) {
      hash = add(hash, label.getKey());
      hash = (hash ^ SEPARATOR) * FNV_PRIME;
      hash = add(hash, label.getValue());
      hash = (hash ^ SEPARATOR) * FNV_PRIME;
    }
    return hash;
  }

  /** As Go prints a fingerprint: 16 lower-case hex digits. */
  public static String hex(long fingerprint) {
    return String.format(Locale.ROOT, "%016x", fingerprint);
  }

  /** {@code model.LabelSet.String()}: {@code {a="1", b="2"}}, values quoted as Go's {@code %q}. */
  public static String goString(SortedMap<String, String> labels) {
    StringBuilder text = new StringBuilder("{");
    for (Iterator<Map.Entry<String, String>> it = labels.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, String> label = it.next();
      text.append(label.getKey()).append('=').append(goQuote(label.getValue()));
      if (it.hasNext()) {
        text.append(", ");
      }
    }
    return text.append('}').toString();
  }

  /** Go's {@code strconv.Quote}. */
  public static String goQuote(String value) {
    StringBuilder out = new StringBuilder(value.length() + 2).append('"');
    value
        .codePoints()
        .forEach(
            c -> {
              switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case 7 -> out.append("\\a");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case 11 -> out.append("\\v");
                default -> {
                  if (c < 0x20 || c == 0x7f) {
                    out.append(String.format(Locale.ROOT, "\\x%02x", c));
                  } else if (Character.isISOControl(c) || !Character.isDefined(c)) {
                    out.append(
                        c > 0xffff
                            ? String.format(Locale.ROOT, "\\U%08x", c)
                            : String.format(Locale.ROOT, "\\u%04x", c));
                  } else {
                    out.appendCodePoint(c);
                  }
                }
              }
            });
    return out.append('"').toString();
  }

  /**
   * Go's {@code regexp.QuoteMeta}: Alertmanager writes the receiver's name into the webhook payload
   * this way.
   */
  public static String quoteMeta(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      if ("\\.+*?()|[]{}^$".indexOf(c) >= 0) {
        out.append('\\');
      }
      out.append(c);
    }
    return out.toString();
  }

  /**
   * {@code model.LabelSet.Before}: fewer labels first, then the first differing name or value
   * decides.
   */
  public static boolean before(SortedMap<String, String> a, SortedMap<String, String> b) {
    if (a.size() != b.size()) {
      return a.size() < b.size();
    }
    TreeSet<String> names =
        new TreeSet<>(Comparator.comparing(LabelSets::utf8, LabelSets::compareBytes));
    names.addAll(a.keySet());
    names.addAll(b.keySet());
    for (String name : names) {
      String av = a.get(name);
      if (av == null) {
        return true;
      }
      String bv = b.get(name);
      if (bv == null) {
        return false;
      }
      int order = compareBytes(utf8(av), utf8(bv));
      if (order != 0) {
        return order < 0;
      }
    }
    return false;
  }

  private static int compareAlerts(SortedMap<String, String> a, SortedMap<String, String> b) {
    for (String key : new String[] {"job", "instance"}) {
      String av = a.get(key);
      String bv = b.get(key);
      if (av == null && bv == null) {
        continue;
      }
      if (av == null) {
        return 1;
      }
      if (bv == null) {
        return -1;
      }
      int order = compareBytes(utf8(av), utf8(bv));
      if (order != 0) {
        return order;
      }
    }
    return before(a, b) ? -1 : before(b, a) ? 1 : 0;
  }

  private static long add(long hash, String text) {
    long h = hash;
    for (byte b : utf8(text)) {
      h ^= b & 0xff;
      h *= FNV_PRIME;
    }
    return h;
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** Go compares strings byte by byte. */
  private static int compareBytes(byte[] a, byte[] b) {
    return java.util.Arrays.compareUnsigned(a, b);
  }
}
