package dev.firedrill.proxy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.net.http1.Http1Body;
import dev.firedrill.net.http1.Http1Head;
import dev.firedrill.net.http1.Http1Reader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * A test upstream on 127.0.0.1, HTTP/1.1 keep-alive, each answer written in one segment with
 * TCP_NODELAY (the JDK's HttpServer writes head and body apart, and Nagle with delayed ACKs adds 40
 * ms to what the tests measure). {@code /echo} answers what it got (method, path, query, headers,
 * body) as JSON; {@code /bytes?n=N} answers N bytes; anything else answers "ok".
 */
public final class Upstream implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Listener listener;

  public Upstream() throws IOException {
    listener =
        new Listener(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            "test-upstream",
            (socket, executor) -> serve(socket));
    listener.start();
  }

  public URI url() {
    return URI.create("http://127.0.0.1:" + listener.address().getPort());
  }

  InetSocketAddress address() {
    return listener.address();
  }

  private static void serve(Socket socket) throws IOException {
    socket.setTcpNoDelay(true);
    Http1Reader in = Proxies.reader(socket);
    OutputStream out = socket.getOutputStream();
    for (int served = 0; served < 10_000_000; served++) {
      Http1Head head = in.readHead();
      if (head == null) {
        return;
      }
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      if (head.chunked()) {
        in.readBodyData(Http1Body.chunked(), Http1Reader.Sink.of(body));
      } else if (head.contentLength() > 0) {
        in.relayBody(Http1Body.ofLength(head.contentLength()), Http1Reader.Sink.of(body));
      }
      String[] parts = head.startParts();
      URI target = URI.create(parts[1]);
      byte[] answer;
      String type = "text/plain";
      if (target.getRawPath().startsWith("/echo")) {
        ObjectNode node = JSON.createObjectNode();
        node.put("method", parts[0]);
        node.put("path", target.getRawPath());
        node.put("query", target.getRawQuery());
        ObjectNode headers = node.putObject("headers");
        for (String[] header : head.headers()) {
          String name = header[0].toLowerCase(Locale.ROOT);
          headers.put(
              name, headers.has(name) ? headers.get(name).asText() + "," + header[1] : header[1]);
        }
        node.put("body", body.toString(StandardCharsets.UTF_8));
        answer = node.toString().getBytes(StandardCharsets.UTF_8);
        type = "application/json";
      } else if (target.getRawPath().startsWith("/bytes")) {
        answer = new byte[Integer.parseInt(target.getRawQuery().substring(2))];
        Arrays.fill(answer, (byte) 'x');
      } else {
        answer = "ok".getBytes(StandardCharsets.UTF_8);
      }
      byte[] response =
          ("HTTP/1.1 200 OK\r\nContent-Type: "
                  + type
                  + "\r\nX-Upstream: yes\r\nContent-Length: "
                  + answer.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.ISO_8859_1);
      byte[] whole = Arrays.copyOf(response, response.length + answer.length);
      System.arraycopy(answer, 0, whole, response.length, answer.length);
      out.write(whole);
      out.flush();
      if (head.hasToken("Connection", "close")) {
        return;
      }
    }
  }

  @Override
  public void close() {
    listener.close();
  }
}
