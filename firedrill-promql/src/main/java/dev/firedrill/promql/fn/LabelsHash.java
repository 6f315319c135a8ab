package dev.firedrill.promql.fn;

import dev.firedrill.promql.model.LabelSet;
import java.nio.charset.StandardCharsets;

/**
 * Prometheus's {@code labels.Hash()}: XXH64 (seed 0) of each label's name and value, each followed
 * by the byte 0xff. {@code limit_ratio} picks series by it, so the same series are kept as a real
 * Prometheus keeps.
 */
public final class LabelsHash {

  private static final long P1 = 0x9E3779B185EBCA87L;
  private static final long P2 = 0xC2B2AE3D27D4EB4FL;
  private static final long P3 = 0x165667B19E3779F9L;
  private static final long P4 = 0x85EBCA77C2B2AE63L;
  private static final long P5 = 0x27D4EB2F165667C5L;

  private LabelsHash() {}

  public static long of(LabelSet labels) {
    int size = 0;
    byte[][] parts = new byte[labels.size() * 2][];
    for (int i = 0; i < labels.size(); i++) {
      parts[2 * i] = labels.name(i).getBytes(StandardCharsets.UTF_8);
      parts[2 * i + 1] = labels.value(i).getBytes(StandardCharsets.UTF_8);
      size += parts[2 * i].length + parts[2 * i + 1].length + 2;
    }
    byte[] b = new byte[size];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, b, at, p.length);
      at += p.length;
      b[at++] = (byte) 0xff;
    }
    return xxh64(b);
  }

  /** The hash as a fraction of the largest unsigned 64-bit value, as Go's float64(h)/MaxUint64. */
  public static double fraction(LabelSet labels) {
    long h = of(labels);
    double unsigned = h >= 0 ? (double) h : (double) (h >>> 1) * 2.0 + (h & 1);
    return unsigned / 18446744073709551615.0;
  }

  static long xxh64(byte[] b) {
    int n = b.length;
    int i = 0;
    long h;
    if (n >= 32) {
      long v1 = P1 + P2;
      long v2 = P2;
      long v3 = 0;
      long v4 = -P1;
      while (i <= n - 32) {
        v1 = round(v1, longAt(b, i));
        v2 = round(v2, longAt(b, i + 8));
        v3 = round(v3, longAt(b, i + 16));
        v4 = round(v4, longAt(b, i + 24));
        i += 32;
      }
      h =
          Long.rotateLeft(v1, 1)
              + Long.rotateLeft(v2, 7)
              + Long.rotateLeft(v3, 12)
              + Long.rotateLeft(v4, 18);
      h = merge(h, v1);
      h = merge(h, v2);
      h = merge(h, v3);
      h = merge(h, v4);
    } else {
      h = P5;
    }
    h += n;
    while (i + 8 <= n) {
      h ^= round(0, longAt(b, i));
      h = Long.rotateLeft(h, 27) * P1 + P4;
      i += 8;
    }
    if (i + 4 <= n) {
      h ^= (intAt(b, i) & 0xFFFFFFFFL) * P1;
      h = Long.rotateLeft(h, 23) * P2 + P3;
      i += 4;
    }
    while (i < n) {
      h ^= (b[i] & 0xFFL) * P5;
      h = Long.rotateLeft(h, 11) * P1;
      i++;
    }
    h ^= h >>> 33;
    h *= P2;
    h ^= h >>> 29;
    h *= P3;
    h ^= h >>> 32;
    return h;
  }

  private static long round(long acc, long input) {
    acc += input * P2;
    acc = Long.rotateLeft(acc, 31);
    return acc * P1;
  }

  private static long merge(long acc, long val) {
    acc ^= round(0, val);
    return acc * P1 + P4;
  }

  private static long longAt(byte[] b, int i) {
    long v = 0;
    for (int j = 7; j >= 0; j--) {
      v = (v << 8) | (b[i + j] & 0xFFL);
    }
    return v;
  }

  private static int intAt(byte[] b, int i) {
    return (b[i] & 0xFF)
        | (b[i + 1] & 0xFF) << 8
        | (b[i + 2] & 0xFF) << 16
        | (b[i + 3] & 0xFF) << 24;
  }
}
