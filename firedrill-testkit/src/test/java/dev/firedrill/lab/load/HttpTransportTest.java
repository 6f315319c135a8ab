package dev.firedrill.lab.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.lab.trace.TraceParent;
import dev.firedrill.testing.StubHttpServer;
import dev.firedrill.testing.TraceHeaders;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The HTTP/1.1 client under the generator, against a server on 127.0.0.1 scripted byte by byte. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HttpTransportTest {

  private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";

  private static LoadPlan plan(URI url, int maxInFlight) {
    return LoadPlan.of(url, 100, Duration.ofSeconds(1))
        .withMaxInFlight(maxInFlight)
        .withTimeout(Duration.ofSeconds(5));
  }

  private static Outcome once(HttpTransport transport) {
    return transport.send(TraceParent.newRoot()).join();
  }

  @Test
  void keepsConnectionsAliveOneConnectionPerRequestInFlight() {
    try (RawServer server = RawServer.start((request, out, socket) -> out.write(bytes(OK)));
        HttpTransport transport = new HttpTransport(plan(server.url("/"), 4))) {
      for (int i = 0; i < 200; i++) {
        assertThat(once(transport)).isEqualTo(Outcome.OK);
      }
      assertThat(server.connections()).as("one request at a time: one connection").isEqualTo(1);

      for (int batch = 0; batch < 25; batch++) {
        List<CompletableFuture<Outcome>> pending = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
          pending.add(transport.send(TraceParent.newRoot()));
        }
        pending.forEach(outcome -> assertThat(outcome.join()).isEqualTo(Outcome.OK));
      }
      assertThat(server.requests()).hasSize(300);
      assertThat(server.connections())
          .as("at most 4 in flight: at most 4 connections")
          .isLessThanOrEqualTo(4);
    }
  }

  @Test
  void readsChunkedBodiesToTheirEndAndKeepsTheConnection() {
    String chunked =
        "HTTP/1.1 %d X\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n";
    AtomicInteger count = new AtomicInteger();
    try (RawServer server =
            RawServer.start(
                (request, out, socket) ->
                    out.write(
                        bytes(String.format(chunked, count.incrementAndGet() == 3 ? 500 : 200))));
        HttpTransport transport = new HttpTransport(plan(server.url("/"), 4))) {
      assertThat(once(transport)).isEqualTo(Outcome.OK);
      assertThat(once(transport)).isEqualTo(Outcome.OK);
      assertThat(once(transport)).isEqualTo(Outcome.ERROR);
      assertThat(once(transport)).isEqualTo(Outcome.OK);
      assertThat(server.connections()).isEqualTo(1);
    }
  }

  @Test
  void connectionCloseFromTheServerOpensANewConnectionForTheNextRequest() {
    try (RawServer server =
            RawServer.start(
                (request, out, socket) -> {
                  out.write(bytes("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n"));
                  socket.close();
                });
        HttpTransport transport = new HttpTransport(plan(server.url("/"), 4))) {
      for (int i = 0; i < 5; i++) {
        assertThat(once(transport)).isEqualTo(Outcome.OK);
      }
      assertThat(server.connections()).isEqualTo(5);
    }
  }

  @Test
  void aBodyWithoutLengthEndsWhenTheServerCloses() {
    try (RawServer server =
            RawServer.start(
                (request, out, socket) -> {
                  out.write(
                      bytes(
                          "HTTP/1.0 302 Found\r\nLocation: /elsewhere\r\n\r\nmoved, and no length"));
                  socket.close();
                });
        HttpTransport transport = new HttpTransport(plan(server.url("/"), 4))) {
      assertThat(once(transport)).as("3xx is ok, and not followed").isEqualTo(Outcome.OK);
      assertThat(once(transport)).isEqualTo(Outcome.OK);
      assertThat(server.requests()).hasSize(2);
    }
  }

  /**
   * A server may close a kept-alive connection while it is idle; the next request then goes on a
   * new one.
   */
  @Test
  void aConnectionClosedWhileIdleIsReopenedNotCountedRefused() {
    try (RawServer server =
            RawServer.start(
                (request, out, socket) -> {
                  out.write(bytes(OK)); // says nothing of closing...
                  socket.close(); // ...and closes
                });
        HttpTransport transport = new HttpTransport(plan(server.url("/"), 4))) {
      for (int i = 0; i < 3; i++) {
        assertThat(once(transport))
            .isEqualTo(Outcome.OK); // whether the close arrives before the next request or after
      }
      assertThat(server.requests()).as("each sent once").hasSize(3);
      assertThat(server.connections()).isEqualTo(3);
    }
  }

  @Test
  void noCompleteResponseWithinTheTimeoutIsATimeout() {
    try (RawServer server =
            RawServer.start(
                (request, out, socket) -> out.write(bytes("HTTP/1.1 200 OK\r\nContent-Le")));
        HttpTransport transport =
            new HttpTransport(plan(server.url("/"), 4).withTimeout(Duration.ofMillis(200)))) {
      long start = System.nanoTime();
      assertThat(once(transport)).isEqualTo(Outcome.TIMEOUT);
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .isBetween(Duration.ofMillis(190), Duration.ofMillis(2_000));
    }
  }

  @Test
  void nothingListeningIsRefused() {
    URI closed = URI.create("http://127.0.0.1:" + StubHttpServer.closedPort() + "/");
    try (HttpTransport transport = new HttpTransport(plan(closed, 4))) {
      assertThat(once(transport)).isEqualTo(Outcome.REFUSED);
      assertThat(once(transport)).isEqualTo(Outcome.REFUSED);
    }
  }

  @Test
  void aResetIsRefused() {
    try (RawServer server =
            RawServer.start(
                (request, out, socket) -> {
                  socket.setSoLinger(true, 0); // close with a RST
                  socket.close();
                });
        HttpTransport transport = new HttpTransport(plan(server.url("/"), 4))) {
      assertThat(once(transport)).isEqualTo(Outcome.REFUSED);
      assertThat(once(transport)).isEqualTo(Outcome.REFUSED);
    }
  }

  @Test
  void clientErrorsAndServerErrorsAreErrors() {
    AtomicInteger count = new AtomicInteger();
    try (RawServer server =
            RawServer.start(
                (request, out, socket) ->
                    out.write(
                        bytes(
                            (count.incrementAndGet() == 1
                                    ? "HTTP/1.1 404 Not Found"
                                    : "HTTP/1.1 503 Unavailable")
                                + "\r\nContent-Length: 4\r\n\r\nnope")));
        HttpTransport transport = new HttpTransport(plan(server.url("/"), 4))) {
      assertThat(once(transport)).isEqualTo(Outcome.ERROR);
      assertThat(once(transport)).isEqualTo(Outcome.ERROR);
      assertThat(server.connections()).isEqualTo(1);
    }
  }

  @Test
  void headResponsesHaveNoBodyWhateverTheirLength() {
    try (RawServer server =
            RawServer.start(
                (request, out, socket) ->
                    out.write(bytes("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")));
        HttpTransport transport = new HttpTransport(plan(server.url("/"), 4).withMethod("HEAD"))) {
      assertThat(once(transport)).isEqualTo(Outcome.OK);
      assertThat(once(transport)).isEqualTo(Outcome.OK);
      assertThat(server.connections()).isEqualTo(1);
    }
  }

  @Test
  void sendsTheRequestLineHostBaggageAndATraceparentPerRequest() {
    try (RawServer server = RawServer.start((request, out, socket) -> out.write(bytes(OK)));
        HttpTransport transport =
            new HttpTransport(
                plan(server.url("/pay?q=1"), 4).withMethod("POST").withExperimentId("drill 7"))) {
      once(transport);
      once(transport);
      List<String> first = server.requests().get(0);
      assertThat(first.get(0)).isEqualTo("POST /pay?q=1 HTTP/1.1");
      assertThat(first)
          .contains(
              "Host: 127.0.0.1:" + server.port(),
              "Content-Length: 0",
              "baggage: chaos.experiment.id=drill%207");
      HashSet<String> traceIds = new HashSet<>();
      for (List<String> request : server.requests()) {
        String traceparent =
            request.stream()
                .filter(line -> line.startsWith("traceparent: "))
                .findFirst()
                .orElseThrow();
        traceIds.add(TraceHeaders.parse(traceparent.substring(13)).orElseThrow().getTraceId());
      }
      assertThat(traceIds).hasSize(2);
    }
  }

  @Test
  void closingEndsRequestsInFlightRefused() {
    CountDownLatch arrived = new CountDownLatch(1);
    try (RawServer server = RawServer.start((request, out, socket) -> arrived.countDown())) {
      HttpTransport transport = new HttpTransport(plan(server.url("/"), 4));
      CompletableFuture<Outcome> pending = transport.send(TraceParent.newRoot());
      assertThat(await(arrived)).isTrue();
      transport.close();
      assertThat(pending.join()).isEqualTo(Outcome.REFUSED);
      assertThat(once(transport)).isEqualTo(Outcome.REFUSED);
    }
  }

  private static boolean await(CountDownLatch latch) {
    try {
      return latch.await(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.ISO_8859_1);
  }

  /**
   * What the scripted server does with each request it reads (its head lines); it may close the
   * socket.
   */
  interface Script {
    void answer(List<String> request, OutputStream out, Socket socket) throws IOException;
  }

  /**
   * A server on 127.0.0.1: a thread per connection, each request's head read and handed to the
   * script.
   */
  private static final class RawServer implements AutoCloseable {
    private final ServerSocket listener;
    private final Script script;
    private final AtomicInteger connections = new AtomicInteger();
    private final List<List<String>> requests = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    private RawServer(Script script) throws IOException {
      this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      this.script = script;
      daemon(this::accept);
    }

    static RawServer start(Script script) {
      try {
        return new RawServer(script);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    URI url(String path) {
      return URI.create("http://127.0.0.1:" + port() + path);
    }

    int port() {
      return listener.getLocalPort();
    }

    int connections() {
      return connections.get();
    }

    List<List<String>> requests() {
      return List.copyOf(requests);
    }

    @Override
    public void close() {
      try {
        listener.close();
        for (Socket socket : sockets) {
          socket.close();
        }
      } catch (IOException e) {
        // closing anyway
      }
    }

    private void accept() {
      while (true) {
        try {
          Socket socket = listener.accept();
          connections.incrementAndGet();
          sockets.add(socket);
          daemon(() -> serve(socket));
        } catch (IOException e) {
          return; // closed
        }
      }
    }

    private void serve(Socket socket) {
      try (socket) {
        InputStream in = new BufferedInputStream(socket.getInputStream());
        OutputStream out = socket.getOutputStream();
        while (!socket.isClosed()) {
          List<String> request = new ArrayList<>();
          for (String line = line(in); line != null && !line.isEmpty(); line = line(in)) {
            request.add(line);
          }
          if (request.isEmpty()) {
            return;
          }
          requests.add(request);
          script.answer(request, out, socket);
          out.flush();
        }
      } catch (IOException e) {
        // the client went away, or the script closed the socket
      }
    }

    private static String line(InputStream in) throws IOException {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      for (int c = in.read(); c != -1; c = in.read()) {
        if (c == '\n') {
          String text = bytes.toString(StandardCharsets.ISO_8859_1);
          return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
        }
        bytes.write(c);
      }
      return null;
    }

    private static void daemon(Runnable task) {
      Thread thread = new Thread(task, "raw-server");
      thread.setDaemon(true);
      thread.start();
    }
  }
}
