package dev.firedrill.net;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;

/**
 * A HEAD request as whoever answers it sees it: whatever is written is dropped, the head going out
 * without a body (the JDK server's {@code -1} length, without its warning about a length for HEAD).
 * A route's GET handler sees method GET, so no handler answers HEAD on its own; a not-found or
 * wrong-method answer sees HEAD.
 */
final class HeadAsGet extends HttpExchange {

  private final HttpExchange head;
  private final String method;

  private HeadAsGet(HttpExchange head, String method) {
    this.head = head;
    this.method = method;
  }

  /** For the route's GET handler. */
  static HttpExchange asGet(HttpExchange head) {
    return new HeadAsGet(head, "GET");
  }

  /** For the guard and the not-found and wrong-method answers. */
  static HttpExchange bodiless(HttpExchange head) {
    return new HeadAsGet(head, "HEAD");
  }

  @Override
  public String getRequestMethod() {
    return method;
  }

  @Override
  public void sendResponseHeaders(int status, long length) throws IOException {
    head.sendResponseHeaders(status, -1);
  }

  /** Drops what is written; closing it closes the real (empty) body, which ends the exchange. */
  @Override
  public OutputStream getResponseBody() {
    return new OutputStream() {
      @Override
      public void write(int b) {
        // a HEAD answer has no body
      }

      @Override
      public void write(byte[] bytes, int offset, int length) {
        // a HEAD answer has no body
      }

      @Override
      public void close() throws IOException {
        head.getResponseBody().close();
      }
    };
  }

  @Override
  public Headers getRequestHeaders() {
    return head.getRequestHeaders();
  }

  @Override
  public Headers getResponseHeaders() {
    return head.getResponseHeaders();
  }

  @Override
  public URI getRequestURI() {
    return head.getRequestURI();
  }

  @Override
  public HttpContext getHttpContext() {
    return head.getHttpContext();
  }

  @Override
  public void close() {
    head.close();
  }

  @Override
  public InputStream getRequestBody() {
    return head.getRequestBody();
  }

  @Override
  public InetSocketAddress getRemoteAddress() {
    return head.getRemoteAddress();
  }

  @Override
  public int getResponseCode() {
    return head.getResponseCode();
  }

  @Override
  public InetSocketAddress getLocalAddress() {
    return head.getLocalAddress();
  }

  @Override
  public String getProtocol() {
    return head.getProtocol();
  }

  @Override
  public Object getAttribute(String name) {
    return head.getAttribute(name);
  }

  @Override
  public void setAttribute(String name, Object value) {
    head.setAttribute(name, value);
  }

  @Override
  public void setStreams(InputStream in, OutputStream out) {
    head.setStreams(in, out);
  }

  @Override
  public HttpPrincipal getPrincipal() {
    return head.getPrincipal();
  }
}
