package dev.firedrill.promql.fn;

import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.XxHash64;
import java.nio.charset.StandardCharsets;

/**
 * Prometheus's {@code labels.Hash()}: XXH64 (seed 0) of each label's name and value, each followed
 * by the byte 0xff. {@code limit_ratio} picks series by it, so the same series are kept as a real
 * Prometheus keeps.
 */
public final class LabelsHash {

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
    return XxHash64.hash(b);
  }

  /** The hash as a fraction of the largest unsigned 64-bit value, as Go's float64(h)/MaxUint64. */
  public static double fraction(LabelSet labels) {
    long h = of(labels);
    double unsigned = h >= 0 ? (double) h : (double) (h >>> 1) * 2.0 + (h & 1);
    return unsigned / 18446744073709551615.0;
  }
}
