package dev.firedrill.lab.load;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One HTTP/1.1 connection to the target, kept alive from one request to the next and opened again
 * when the server closes it. One worker owns it, so it is not thread-safe, except {@link #close}.
 */
final class HttpConnection implements AutoCloseable {

  private final String host;
  private final int port;
  private final boolean tls;
  private volatile Socket socket;
  private OutputStream out;
  private ResponseReader in;
  private volatile boolean closed;

  HttpConnection(URI url) {
    String name = url.getHost();
    this.host = name.startsWith("[") ? name.substring(1, name.length() - 1) : name; // IPv6 literal
    this.tls = "https".equals(url.getScheme());
    this.port = url.getPort() >= 0 ? url.getPort() : tls ? 443 : 80;
  }

  /**
   * Sends {@code request} (a whole request, written at once) and reads the response to its end,
   * within {@code timeoutNanos} from now, connecting first if need be.
   */
  Outcome exchange(byte[] request, int length, boolean head, long timeoutNanos) {
    long deadline = System.nanoTime() + timeoutNanos;
    boolean reused = socket != null;
    try {
      return attempt(request, length, head, deadline);
    } catch (SocketTimeoutException e) {
      disconnect(); // the response may still come: the connection is out of step
      return Outcome.TIMEOUT;
    } catch (IOException e) {
      // A kept-alive connection the server closed while idle fails before a byte of response: that
      // is
      // our stale connection, not the server's answer to this request, so try once on a new one.
      boolean stale = reused && (in == null || in.received() == 0);
      disconnect();
      return stale && !closed ? retry(request, length, head, deadline) : Outcome.REFUSED;
    }
  }

  private Outcome retry(byte[] request, int length, boolean head, long deadline) {
    try {
      return attempt(request, length, head, deadline);
    } catch (SocketTimeoutException e) {
      disconnect();
      return Outcome.TIMEOUT;
    } catch (IOException e) {
      disconnect();
      return Outcome.REFUSED;
    }
  }

  private Outcome attempt(byte[] request, int length, boolean head, long deadline)
      throws IOException {
    if (socket == null) {
      connect(deadline);
    }
    in.start(deadline);
    out.write(request, 0, length);
    out.flush();
    ResponseReader.Response response = in.read(head);
    if (!response.keepAlive()) {
      disconnect();
    }
    return classify(response.status());
  }

  static Outcome classify(int status) {
    return status >= 200 && status < 400 ? Outcome.OK : Outcome.ERROR;
  }

  private void connect(long deadline) throws IOException {
    Socket plain = new Socket();
    socket = plain; // so that close() from another thread reaches a connect in progress
    if (closed) {
      disconnect();
      throw new IOException("closed");
    }
    plain.setTcpNoDelay(true); // a request is one write; do not hold it back waiting for an ACK
    plain.connect(new InetSocketAddress(host, port), millisLeft(deadline));
    if (tls) {
      plain.setSoTimeout(millisLeft(deadline));
      SSLSocket secure =
          (SSLSocket)
              ((SSLSocketFactory) SSLSocketFactory.getDefault())
                  .createSocket(plain, host, port, true);
      SSLParameters parameters = secure.getSSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      secure.setSSLParameters(parameters);
      socket = secure;
      secure.startHandshake();
    }
    out = socket.getOutputStream();
    in = new ResponseReader(socket);
  }

  private static int millisLeft(long deadline) throws SocketTimeoutException {
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      throw new SocketTimeoutException("no connection within the timeout");
    }
    return (int) Math.max(1, (left + 999_999) / 1_000_000);
  }

  private void disconnect() {
    Socket current = socket;
    socket = null;
    out = null;
    in = null;
    if (current != null) {
      try {
        current.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }

  /** Closes the connection, from any thread: an exchange in progress ends refused. */
  @Override
  public void close() {
    closed = true;
    Socket current = socket;
    if (current != null) {
      try {
        current.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }
}
