package dev.firedrill.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.net.http1.Http1Body;
import dev.firedrill.net.http1.Http1Head;
import dev.firedrill.net.http1.Http1Reader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * HTTP mode's event loop, on what the fast path handles itself (pipelining, chunked and until-close
 * responses, HEAD, an upstream connection closed while idle) and on what it hands over (a
 * keep-alive connection whose next request meets a toxic).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EventLoopTest {

  /**
   * Answers by path: /chunked in chunks with a trailer, /close until close, anything else by
   * length.
   */
  private static void serve(Socket socket) throws IOException {
    Http1Reader in = Proxies.reader(socket);
    OutputStream out = socket.getOutputStream();
    while (true) {
      Http1Head head = in.readHead();
      if (head == null) {
        return;
      }
      if (head.contentLength() > 0) {
        in.relayBody(Http1Body.ofLength(head.contentLength()), (bytes, offset, n) -> {});
      }
      String path = head.startParts()[1];
      if (path.equals("/chunked")) {
        out.write(
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nchun\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        out.write(
            ("3;x=y\r\nked\r\n0\r\nX-Trailer: t\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
      } else if (path.equals(
          "/then-close")) { // keep-alive by its head, closed anyway: the proxy must not reuse it
        out.write(
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return;
      } else if (path.equals("/close")) {
        out.write("HTTP/1.1 200 OK\r\n\r\nuntil close".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return;
      } else {
        String body = "path " + path;
        out.write(
            ("HTTP/1.1 200 OK\r\nContent-Length: "
                    + body.length()
                    + "\r\n\r\n"
                    + (head.startParts()[0].equals("HEAD") ? "" : body))
                .getBytes(StandardCharsets.ISO_8859_1));
      }
      out.flush();
    }
  }

  private Listener upstream;
  private FaultProxy proxy;

  @BeforeEach
  void start() throws IOException {
    upstream =
        new Listener(Proxies.anyPort(), "test-raw-upstream", (socket, executor) -> serve(socket));
    upstream.start();
    proxy = Proxies.http(URI.create("http://127.0.0.1:" + upstream.address().getPort()));
  }

  @AfterEach
  void stop() {
    proxy.close();
    upstream.close();
  }

  private Socket client() throws IOException {
    Socket socket = new Socket("127.0.0.1", proxy.listenAddress().getPort());
    socket.setSoTimeout(5000);
    return socket;
  }

  private static String response(Http1Reader in) throws IOException {
    Http1Head head = in.readHead();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if (head.chunked()) {
      in.relayBody(Http1Body.chunked(), Http1Reader.Sink.of(body));
    } else if (head.contentLength() > 0) {
      in.relayBody(Http1Body.ofLength(head.contentLength()), Http1Reader.Sink.of(body));
    }
    return head.startLine() + "|" + body.toString(StandardCharsets.ISO_8859_1);
  }

  @Test
  void answersPipelinedRequestsInOrder() throws IOException {
    try (Socket socket = client()) {
      socket
          .getOutputStream()
          .write(
              ("GET /one HTTP/1.1\r\nHost: x\r\n\r\nPOST /two HTTP/1.1\r\nHost: x\r\n"
                      + "Content-Length: 3\r\n\r\nabcHEAD /three HTTP/1.1\r\nHost: x\r\n\r\nGET /four HTTP/1.1\r\nHost: x\r\n\r\n")
                  .getBytes(StandardCharsets.ISO_8859_1));
      Http1Reader in = Proxies.reader(socket);
      assertThat(response(in)).isEqualTo("HTTP/1.1 200 OK|path /one");
      assertThat(response(in)).isEqualTo("HTTP/1.1 200 OK|path /two");
      Http1Head head = in.readHead(); // HEAD: the length of the body it would have, and no body
      assertThat(head.contentLength()).isEqualTo("path /three".length());
      assertThat(response(in)).isEqualTo("HTTP/1.1 200 OK|path /four");
    }
  }

  @Test
  void relaysChunkedResponsesWithTheirTrailersAndKeepsTheConnection() throws IOException {
    try (Socket socket = client()) {
      OutputStream out = socket.getOutputStream();
      Http1Reader in = Proxies.reader(socket);
      for (int i = 0; i < 3; i++) {
        out.write("GET /chunked HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        ByteArrayOutputStream framed = new ByteArrayOutputStream();
        Http1Head head = in.readHead();
        assertThat(head.chunked()).isTrue();
        in.relayBody(Http1Body.chunked(), Http1Reader.Sink.of(framed));
        assertThat(framed.toString(StandardCharsets.ISO_8859_1))
            .isEqualTo("4\r\nchun\r\n3;x=y\r\nked\r\n0\r\nX-Trailer: t\r\n\r\n");
      }
    }
  }

  @Test
  void relaysAResponseUntilCloseThenClosesTheClient() throws IOException {
    try (Socket socket = client()) {
      socket
          .getOutputStream()
          .write("GET /close HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      String all = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
      assertThat(all)
          .startsWith("HTTP/1.1 200 OK\r\n")
          .contains("Connection: close\r\n")
          .endsWith("\r\n\r\nuntil close");
    }
  }

  @Test
  void retriesOnANewUpstreamConnectionWhenAReusedOneWasClosed() throws IOException {
    try (Socket socket = client()) {
      OutputStream out = socket.getOutputStream();
      Http1Reader in = Proxies.reader(socket);
      for (int i = 0; i < 20; i++) {
        out.write(
            "GET /then-close HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThat(response(in)).isEqualTo("HTTP/1.1 200 OK|ok");
      }
    }
  }

  @Test
  void aKeepAliveConnectionMeetsAToxicAddedAfterItsFirstRequest() throws Exception {
    try (Socket socket = client()) {
      OutputStream out = socket.getOutputStream();
      Http1Reader in = Proxies.reader(socket);
      out.write("GET /before HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      assertThat(response(in)).isEqualTo("HTTP/1.1 200 OK|path /before");
      new Admin(proxy.adminUrl())
          .add("{\"type\": \"error\", \"attributes\": {\"status\": 503}, \"ttl\": \"1m\"}");
      out.write("GET /after HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      assertThat(response(in)).startsWith("HTTP/1.1 503");
      out.write("GET /again HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      assertThat(response(in)).startsWith("HTTP/1.1 503");
    }
  }
}
