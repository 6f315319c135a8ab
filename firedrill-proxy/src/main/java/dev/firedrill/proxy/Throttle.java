package dev.firedrill.proxy;

import dev.firedrill.net.http1.Http1Reader;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;

/** A sink that paces writes to a rate in bytes per second, in slices of a twentieth of a second. */
final class Throttle implements Http1Reader.Sink {

  private final Http1Reader.Sink out;
  private final long bytesPerSecond;
  private final Clock clock;
  private final int slice;
  private long started = -1;
  private long sent;

  Throttle(Http1Reader.Sink out, long bytesPerSecond, Clock clock) {
    this.out = out;
    this.bytesPerSecond = bytesPerSecond;
    this.clock = clock;
    this.slice = (int) Math.max(1, Math.min(16 * 1024, bytesPerSecond / 20));
  }

  @Override
  public void write(byte[] bytes, int offset, int length) throws IOException {
    if (started < 0) {
      started = clock.nanoTime();
    }
    int end = offset + length;
    for (int at = offset; at < end; at += slice) { // bounded by the length
      int n = Math.min(slice, end - at);
      out.write(bytes, at, n);
      sent += n;
      long due = started + (long) (sent * 1e9 / bytesPerSecond);
      long wait = due - clock.nanoTime();
      if (wait > 0) {
        try {
          clock.sleep(Duration.ofNanos(wait));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while throttling");
        }
      }
    }
  }
}
