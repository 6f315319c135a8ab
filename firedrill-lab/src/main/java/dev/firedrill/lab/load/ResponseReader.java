package dev.firedrill.lab.load;

import dev.firedrill.net.http1.Http1Body;
import dev.firedrill.net.http1.Http1Head;
import dev.firedrill.net.http1.Http1Reader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * Reads HTTP/1.1 responses off one connection ({@link Http1Reader}) and throws their bodies away.
 * Before every read the socket's timeout is set to what is left of the request's deadline, so a
 * slow trickle cannot stretch a request past it. Heads are bounded by the reader's buffer, so a
 * hostile server costs bounded memory.
 */
final class ResponseReader {

  /**
   * A response read to its end: its status, and whether the connection may carry the next request.
   */
  record Response(int status, boolean keepAlive) {}

  private final Http1Reader reader;
  private long received;
  private long deadline;

  ResponseReader(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    this.reader =
        new Http1Reader(
            (into, offset, length) -> {
              long left = deadline - System.nanoTime();
              if (left <= 0) {
                throw new SocketTimeoutException("no complete response within the timeout");
              }
              socket.setSoTimeout((int) Math.max(1, (left + 999_999) / 1_000_000));
              int n = in.read(into, offset, length);
              received += Math.max(n, 0);
              return n;
            });
  }

  /**
   * Bytes of this response received so far: none means the server closed without answering at all.
   */
  long received() {
    return received;
  }

  /**
   * Starts a new request's response: none of it received yet, and reads past {@code deadline} (a
   * {@link System#nanoTime} reading) throw {@link SocketTimeoutException}.
   */
  void start(long deadline) {
    this.deadline = deadline;
    this.received = 0;
  }

  /**
   * The response to the request sent since {@link #start}, body included; 1xx interim responses are
   * skipped. {@code head} says the request was HEAD (no body whatever the headers say).
   */
  Response read(boolean head) throws IOException {
    while (true) {
      Http1Head response = reader.readHead();
      if (response == null) {
        throw new EOFException("the server closed the connection before the response ended");
      }
      int status = response.status();
      if (status >= 100 && status < 200 && status != 101) {
        continue; // 100 Continue and friends: the real response follows
      }
      Http1Body body = Http1Body.ofResponse(response, head);
      reader.relayBody(body, Http1Reader.Sink.discard());
      boolean keepAlive = response.keepAlive() && status != 101 && !body.isUntilClose();
      return new Response(status, keepAlive);
    }
  }
}
