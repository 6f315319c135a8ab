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
 * A HEAD request as its route's GET handler sees it: method GET, and whatever the handler writes is
 * dropped, the head going out without a body (the JDK server's {@code -1} length). So no handler
 * answers HEAD on its own.
 */
final class HeadAsGet extends HttpExchange {

  private final HttpExchange head;

  HeadAsGet(HttpExchange head) {
    this.head = head;
  }

  @Override
  public String getRequestMethod() {
    return "GET";
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
