package dev.firedrill.net.http1;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * HTTP/1.x messages read off one connection: heads parsed in place, bodies ({@link Http1Body})
 * relayed, decoded or skipped without being held. The reader owns the connection's buffered input,
 * so whatever reads the connection next (another thread, or the same connection switched from
 * non-blocking to blocking reads) takes the reader along with its {@link Source}, and no byte read
 * ahead is left behind.
 *
 * <p>Two ways to use it, on the same buffer:
 *
 * <ul>
 *   <li><b>blocking</b>: {@link #readHead()}, {@link #relayBody}, {@link #readBodyData}, each
 *       reading from the source until it has what it needs;
 *   <li><b>non-blocking</b> (an event loop): {@link #fill()} once when the channel is readable,
 *       then {@link #nextHead()}, {@link #passBody} and {@link #take} on what is buffered.
 * </ul>
 *
 * A head must fit the buffer ({@value #BUFFER} bytes): a bigger one fails, so a hostile peer costs
 * bounded memory. Not thread-safe: one owner at a time.
 */
public final class Http1Reader {

  public static final int BUFFER = 16 * 1024;

  /**
   * Where the bytes come from: -1 at the end of the stream, 0 when none are there yet
   * (non-blocking).
   */
  @FunctionalInterface
  public interface Source {
    int read(byte[] into, int offset, int length) throws IOException;

    static Source of(InputStream in) {
      return in::read;
    }

    /** A channel; non-blocking or not, as it is configured. */
    static Source of(ReadableByteChannel channel) {
      return new Source() {
        private ByteBuffer wrapped; // the reader's one array, wrapped once

        @Override
        public int read(byte[] into, int offset, int length) throws IOException {
          if (wrapped == null || wrapped.array() != into) {
            wrapped = ByteBuffer.wrap(into);
          }
          wrapped.limit(offset + length).position(offset);
          return channel.read(wrapped);
        }
      };
    }
  }

  /** Where relayed bytes go. */
  @FunctionalInterface
  public interface Sink {
    void write(byte[] bytes, int offset, int length) throws IOException;

    default void write(byte[] bytes) throws IOException {
      write(bytes, 0, bytes.length);
    }

    static Sink of(OutputStream out) {
      return out::write;
    }

    /** Drops everything: for a body only skipped. */
    static Sink discard() {
      return (bytes, offset, length) -> {};
    }
  }

  private final byte[] buffer = new byte[BUFFER];
  private Source source;
  private int start;
  private int end;
  private int lastHead;

  public Http1Reader(Source source) {
    this.source = source;
  }

  /**
   * Reads on from {@code source} (the same connection read another way); what is buffered stays.
   */
  public void source(Source source) {
    this.source = source;
  }

  /** Bytes read and not yet consumed. */
  public int buffered() {
    return end - start;
  }

  /** Whether the buffer holds all it can: {@link #fill()} reads nothing until some is consumed. */
  public boolean full() {
    return end - start == buffer.length;
  }

  /** Forgets what is buffered (a connection given back whole, or one out of step). */
  public void clear() {
    start = 0;
    end = 0;
  }

  /**
   * One read from the source into the buffer: the bytes read, 0 when none were there (or there is
   * no room), -1 at the end of the stream.
   */
  public int fill() throws IOException {
    if (start == end) {
      start = 0;
      end = 0;
    } else if (end == buffer.length && start > 0) {
      System.arraycopy(buffer, start, buffer, 0, end - start);
      end -= start;
      start = 0;
    }
    if (end == buffer.length) {
      return 0;
    }
    int n = source.read(buffer, end, buffer.length - end);
    if (n > 0) {
      end += n;
    }
    return n;
  }

  /** {@link #fill()} that waits: false at the end of the stream. */
  private boolean fillBlocking() throws IOException {
    int n = fill();
    if (n == 0) {
      throw new IllegalStateException(
          full() ? "buffer full" : "a blocking read on a non-blocking source");
    }
    return n > 0;
  }

  /**
   * The next head if it is whole in the buffer (consumed), else null without consuming anything.
   * {@link Http1Head.Malformed} when it is not HTTP/1.x; IOException when it cannot fit the buffer.
   */
  public Http1Head nextHead() throws IOException {
    int length = Http1Head.length(buffer, start, end);
    if (length < 0) {
      if (full()) {
        throw new IOException("head larger than " + BUFFER + " bytes");
      }
      return null;
    }
    int at = start;
    start += length;
    lastHead = length;
    return Http1Head.parse(buffer, at, length);
  }

  /**
   * How many bytes the head {@link #nextHead()} or {@link #readHead()} returned last took on the
   * wire.
   */
  public int lastHeadLength() {
    return lastHead;
  }

  /** The next head, read until whole; null at a clean end of stream before any byte of it. */
  public Http1Head readHead() throws IOException {
    while (true) {
      Http1Head head = nextHead();
      if (head != null) {
        return head;
      }
      if (!fillBlocking()) {
        if (end == start) {
          return null;
        }
        throw new EOFException("stream ended inside a head");
      }
    }
  }

  /** Moves {@code length} buffered bytes to {@code sink}; at most {@link #buffered()}. */
  public void take(int length, Sink sink) throws IOException {
    if (length > end - start) {
      throw new IllegalArgumentException(length + " bytes asked, " + (end - start) + " buffered");
    }
    sink.write(buffer, start, length);
    start += length;
  }

  /**
   * The buffered part of {@code body} to {@code sink}, verbatim (framing and all), consumed. Never
   * reads.
   */
  public int passBody(Http1Body body, Sink sink) throws IOException {
    int n = body.scan(buffer, start, end - start);
    sink.write(buffer, start, n);
    start += n;
    return n;
  }

  /** All of {@code body} to {@code sink} verbatim, framing included, reading until it ends. */
  public void relayBody(Http1Body body, Sink sink) throws IOException {
    read(body, sink, null);
  }

  /** All of {@code body}'s data to {@code data} (a chunked body decoded), reading until it ends. */
  public void readBodyData(Http1Body body, Sink data) throws IOException {
    read(body, null, data);
  }

  private void read(Http1Body body, Sink verbatim, Sink data) throws IOException {
    while (!body.done()) {
      if (start == end && !fillBlocking()) {
        if (body.isUntilClose()) {
          return;
        }
        throw new EOFException("stream ended inside a body");
      }
      int n = body.scan(buffer, start, end - start, data);
      if (verbatim != null) {
        verbatim.write(buffer, start, n);
      }
      start += n;
    }
  }
}
