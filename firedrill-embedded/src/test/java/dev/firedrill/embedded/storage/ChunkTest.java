package dev.firedrill.embedded.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.promql.model.StaleNaN;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ChunkTest {

  /** Appends the samples to chunks as a series would, then decodes each chunk whole. */
  private static void assertRoundTrip(long[] t, double[] v) {
    int at = 0;
    while (at < t.length) {
      Chunk chunk = new Chunk(t[at], v[at]);
      int first = at++;
      while (at < t.length && !chunk.full()) {
        chunk.add(t[at], v[at]);
        at++;
      }
      if (chunk.full()) {
        chunk.seal();
      }
      long[] gotT = new long[chunk.count()];
      double[] gotV = new double[chunk.count()];
      int n = chunk.copy(Long.MIN_VALUE, Long.MAX_VALUE, gotT, gotV, 0);
      assertThat(n).isEqualTo(at - first);
      assertThat(chunk.lastTimestamp()).isEqualTo(t[at - 1]);
      assertThat(chunk.lastValueBits()).isEqualTo(Double.doubleToRawLongBits(v[at - 1]));
      for (int i = 0; i < n; i++) {
        assertThat(gotT[i]).as("timestamp %d", first + i).isEqualTo(t[first + i]);
        assertThat(Double.doubleToRawLongBits(gotV[i]))
            .as("value bits %d (%s)", first + i, v[first + i])
            .isEqualTo(Double.doubleToRawLongBits(v[first + i]));
      }
    }
  }

  @Test
  void steadyScrapesOfACounterDecodeExactly() {
    long[] t = new long[Chunk.MAX_SAMPLES];
    double[] v = new double[t.length];
    for (int i = 0; i < t.length; i++) {
      t[i] = 1_700_000_000_000L + i * 15_000L;
      v[i] = 1_000 + i * 7;
    }
    assertRoundTrip(t, v);
  }

  @Test
  void irregularTimesAndEveryKindOfValueDecodeBitForBit() {
    Random random = new Random(19);
    int n = 5_000;
    long[] t = new long[n];
    double[] v = new double[n];
    long now = -3_600_000L;
    double[] special = {
      StaleNaN.VALUE,
      Double.NaN,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY,
      -0.0,
      0.0,
      Double.MIN_VALUE,
      Double.MAX_VALUE,
      -Double.MAX_VALUE
    };
    for (int i = 0; i < n; i++) {
      // Gaps from 1 ms to beyond what 20 bits of delta-of-delta hold, and back.
      now +=
          switch (random.nextInt(5)) {
            case 0 -> 15_000;
            case 1 -> 1 + random.nextInt(100);
            case 2 -> 1 + random.nextInt(200_000);
            case 3 -> 1 + (long) random.nextInt(Integer.MAX_VALUE) * 1_000;
            default -> 15_000 + random.nextInt(3) - 1;
          };
      t[i] = now;
      v[i] =
          switch (random.nextInt(5)) {
            case 0 -> special[random.nextInt(special.length)];
            case 1 -> i > 0 ? v[i - 1] : 1;
            case 2 -> random.nextGaussian() * 1e6;
            case 3 -> Double.longBitsToDouble(random.nextLong());
            default -> i * 3.0;
          };
    }
    assertRoundTrip(t, v);
  }

  @Test
  void aRangeDecodesOnlyItsSamples() {
    Chunk chunk = new Chunk(1_000, 1);
    for (int i = 2; i <= 10; i++) {
      chunk.add(i * 1_000L, i);
    }
    long[] t = new long[10];
    double[] v = new double[10];
    int n = chunk.copy(3_500, 6_000, t, v, 0);
    assertThat(n).isEqualTo(3);
    assertThat(t).startsWith(4_000, 5_000, 6_000);
    assertThat(v).startsWith(4, 5, 6);
    assertThat(chunk.firstAtOrAfter(3_500)).isEqualTo(4_000);
    assertThat(chunk.firstAtOrAfter(500)).isEqualTo(1_000);
    assertThat(chunk.firstAtOrAfter(10_001)).isEqualTo(Long.MAX_VALUE);
  }
}
