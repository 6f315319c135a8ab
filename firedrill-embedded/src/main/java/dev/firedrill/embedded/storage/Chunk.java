package dev.firedrill.embedded.storage;

import java.util.Arrays;

/**
 * Up to {@link #MAX_SAMPLES} consecutive samples of one series, compressed as Prometheus's XOR
 * chunks are (after Facebook's Gorilla): each timestamp as the difference between its delta and the
 * previous delta, each value as the XOR of its bits with the previous value's. A scraped series at
 * a steady interval with a counter that moves by similar steps costs a few bits a sample instead of
 * 16 bytes, which is what keeps the heap per series near Prometheus's own.
 *
 * <p>Samples are only read in order, from the first: a read decodes the chunk up to the end of its
 * range, as Prometheus does.
 */
final class Chunk {

  /** Prometheus cuts its head chunks at 120 samples too. */
  static final int MAX_SAMPLES = 120;

  /** No XOR window yet: the next changed value writes its own. */
  private static final int NO_WINDOW = -1;

  private final long firstMs;
  private final double firstValue;

  /** The bit stream of every sample but the first, most significant bit first in each word. */
  private long[] words = new long[2];

  private int bits;
  private int count = 1;

  // The encoder's state: the newest sample, the delta before it and the XOR window in use.
  private long lastMs;
  private long lastDeltaMs;
  private long lastValueBits;
  private int leading = NO_WINDOW;
  private int trailing;

  Chunk(long timestampMs, double value) {
    this.firstMs = timestampMs;
    this.firstValue = value;
    this.lastMs = timestampMs;
    this.lastValueBits = Double.doubleToRawLongBits(value);
  }

  boolean full() {
    return count >= MAX_SAMPLES;
  }

  /** Appends a sample after the newest one (the caller has checked the order). */
  void add(long timestampMs, double value) {
    long delta = timestampMs - lastMs;
    long dod = delta - lastDeltaMs;
    if (dod == 0) {
      write(0, 1);
    } else if (fits(dod, 14)) {
      write(0b10, 2);
      write(dod, 14);
    } else if (fits(dod, 17)) {
      write(0b110, 3);
      write(dod, 17);
    } else if (fits(dod, 20)) {
      write(0b1110, 4);
      write(dod, 20);
    } else {
      write(0b1111, 4);
      write(dod, 64);
    }
    lastDeltaMs = delta;
    lastMs = timestampMs;
    count++;

    long valueBits = Double.doubleToRawLongBits(value);
    long xor = valueBits ^ lastValueBits;
    lastValueBits = valueBits;
    if (xor == 0) {
      write(0, 1);
      return;
    }
    // Five bits hold the leading zeros, so more than 31 are written as 31.
    int lead = Math.min(Long.numberOfLeadingZeros(xor), 31);
    int trail = Long.numberOfTrailingZeros(xor);
    if (leading != NO_WINDOW && lead >= leading && trail >= trailing) {
      write(0b10, 2);
      write(xor >>> trailing, 64 - leading - trailing);
      return;
    }
    int significant = 64 - lead - trail;
    write(0b11, 2);
    write(lead, 5);
    // 64 significant bits are written as 0: a nonzero XOR has at least one.
    write(significant & 63, 6);
    write(xor >>> trail, significant);
    leading = lead;
    trailing = trail;
  }

  /** Gives back the room a full chunk will not use: it takes no more samples. */
  void seal() {
    words = Arrays.copyOf(words, (bits + 63) >>> 6);
  }

  int count() {
    return count;
  }

  long firstTimestamp() {
    return firstMs;
  }

  long lastTimestamp() {
    return lastMs;
  }

  long lastValueBits() {
    return lastValueBits;
  }

  /** The first timestamp at or after {@code timestampMs}, or Long.MAX_VALUE if none is. */
  long firstAtOrAfter(long timestampMs) {
    if (firstMs >= timestampMs) {
      return firstMs;
    }
    if (lastMs < timestampMs) {
      return Long.MAX_VALUE;
    }
    Reader r = new Reader();
    while (r.next() < timestampMs) {
      // The last timestamp is at or after the bound, so the loop ends.
    }
    return r.t;
  }

  /**
   * Decodes the samples with timestamps in {@code [minMs, maxMs]} into the arrays at {@code at},
   * which have room for {@link #count()} more; returns the position after them.
   */
  int copy(long minMs, long maxMs, long[] timestamps, double[] values, int at) {
    if (firstMs >= minMs && firstMs <= maxMs) {
      timestamps[at] = firstMs;
      values[at] = firstValue;
      at++;
    }
    if (lastMs < minMs || count == 1) {
      return at;
    }
    Reader r = new Reader();
    for (int i = 1; i < count; i++) {
      long t = r.next();
      if (t > maxMs) {
        break;
      }
      if (t >= minMs) {
        timestamps[at] = t;
        values[at] = Double.longBitsToDouble(r.valueBits);
        at++;
      }
    }
    return at;
  }

  private static boolean fits(long value, int bitCount) {
    long half = 1L << (bitCount - 1);
    return value >= -half && value < half;
  }

  /** Writes the low {@code n} bits of {@code value}, 1 to 64. */
  private void write(long value, int n) {
    int need = (bits + n + 63) >>> 6;
    if (need > words.length) {
      words = Arrays.copyOf(words, Math.max(need, words.length + (words.length >>> 1) + 1));
    }
    long v = n == 64 ? value : value & ((1L << n) - 1);
    int word = bits >>> 6;
    int free = 64 - (bits & 63);
    if (n <= free) {
      words[word] |= v << (free - n);
    } else {
      words[word] |= v >>> (n - free);
      words[word + 1] |= v << (64 - (n - free));
    }
    bits += n;
  }

  /** Decodes the samples after the first, in order; a reader holds its own position. */
  private final class Reader {
    private int pos;
    long t = firstMs;
    private long delta;
    long valueBits = Double.doubleToRawLongBits(firstValue);
    private int lead;
    private int trail;

    /** Decodes the next sample and returns its timestamp. */
    long next() {
      long dod;
      if (read(1) == 0) {
        dod = 0;
      } else if (read(1) == 0) {
        dod = signed(read(14), 14);
      } else if (read(1) == 0) {
        dod = signed(read(17), 17);
      } else if (read(1) == 0) {
        dod = signed(read(20), 20);
      } else {
        dod = read(64);
      }
      delta += dod;
      t += delta;
      if (read(1) == 1) {
        if (read(1) == 1) {
          lead = (int) read(5);
          int significant = (int) read(6);
          if (significant == 0) {
            significant = 64;
          }
          trail = 64 - lead - significant;
        }
        valueBits ^= read(64 - lead - trail) << trail;
      }
      return t;
    }

    private long read(int n) {
      int word = pos >>> 6;
      int used = pos & 63;
      int available = 64 - used;
      pos += n;
      if (n <= available) {
        return (words[word] << used) >>> (64 - n);
      }
      long high = (words[word] << used) >>> used;
      int rest = n - available;
      return (high << rest) | (words[word + 1] >>> (64 - rest));
    }

    private static long signed(long raw, int n) {
      return (raw << (64 - n)) >> (64 - n);
    }
  }
}
