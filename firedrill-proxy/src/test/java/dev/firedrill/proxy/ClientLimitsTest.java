package dev.firedrill.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.net.http1.Http1Body;
import dev.firedrill.net.http1.Http1Head;
import dev.firedrill.net.http1.Http1Reader;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The data port's limits on clients in HTTP mode, short here (a request has 1 s to arrive, a
 * kept-alive connection may idle 2 s, 8 connections at once) so that the test takes seconds: a
 * client sending a byte of its head every 200 ms is cut although it never stops sending, on the
 * event loop and on a connection handed over to a thread of its own (a toxic in force); an idle one
 * is cut; a connection past the bound is closed at once and the others are still served. Before,
 * each byte restarted a 60 s idle timer, so a slow client held its connection for ever, and the
 * data port took every connection it was offered.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClientLimitsTest {

  private static final ClientLimits LIMITS =
      new ClientLimits(Duration.ofSeconds(1), Duration.ofSeconds(2), 8);

  /** The bound alone: the held connections send nothing and must not idle out meanwhile. */
  private static final ClientLimits BOUND =
      new ClientLimits(Duration.ofSeconds(1), Duration.ofSeconds(60), 8);

  /** 200 ms each: 50 are 10 s, five times what a limit and the loop's 1 s tick take together. */
  private static final int MAX_STEPS = 50;

  private static final byte[] SLOW_START =
      "GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] REQUEST =
      "GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

  private Upstream upstream;
  private FaultProxy proxy;

  @BeforeEach
  void start() throws IOException {
    upstream = new Upstream();
    proxy = start(LIMITS);
  }

  private FaultProxy start(ClientLimits limits) throws IOException {
    return FaultProxy.start(
        new ProxyConfig(
            "payments",
            ProxyConfig.Mode.HTTP,
            Proxies.anyPort(),
            upstream.url(),
            Proxies.anyPort(),
            Optional.empty(),
            Optional.empty()),
        Clock.system(),
        limits);
  }

  @AfterEach
  void stop() {
    proxy.close();
    upstream.close();
  }

  @Test
  void aClientSendingItsHeadAByteAtATimeIsCutOnTheEventLoop() throws IOException {
    try (Socket slow = client()) {
      assertThat(stepsUntilCut(slow, true))
          .as("200 ms steps, a byte each, before the proxy closed the connection")
          .isLessThan(MAX_STEPS);
    }
    try (Socket other = client()) {
      assertThat(answer(other)).as("another client meanwhile").startsWith("HTTP/1.1 200");
    }
  }

  @Test
  void aSlowHeadIsCutOnAConnectionHandedOverByAToxic() throws Exception {
    new Admin(proxy.adminUrl())
        .add("{\"type\": \"latency\", \"attributes\": {\"latency\": 1}, \"ttl\": \"1m\"}");
    try (Socket client = client()) {
      assertThat(answer(client)).as("the first request, through the toxic").startsWith("HTTP/1.1");
      assertThat(stepsUntilCut(client, true))
          .as("200 ms steps of the next request's head before the handler closed the connection")
          .isLessThan(MAX_STEPS);
    }
  }

  @Test
  void anIdleConnectionIsCut() throws IOException {
    try (Socket idle = client()) {
      assertThat(stepsUntilCut(idle, false)).isLessThan(MAX_STEPS);
    }
  }

  @Test
  void aConnectionPastTheBoundIsClosedAndTheOthersAreServed() throws IOException {
    proxy.close();
    proxy = start(BOUND);
    List<Socket> held = new ArrayList<>();
    try {
      for (int i = 0; i < BOUND.connections(); i++) {
        held.add(client());
      }
      Socket pacer = held.get(held.size() - 1); // sends nothing, so is sent nothing
      // Counted in by the acceptor: the ninth waits until the eighth is.
      awaitClients(BOUND.connections(), pacer);
      try (Socket extra = client()) {
        extra.setSoTimeout(5000);
        assertThat(readOrEnd(extra)).as("the connection past the bound, closed").isEqualTo(-1);
      }
      assertThat(answer(held.get(1))).as("a held connection still served").startsWith("HTTP/1.1");
      held.remove(0).close();
      awaitClients(BOUND.connections() - 1, pacer);
      try (Socket next = client()) {
        assertThat(answer(next)).as("a new one once one closed").startsWith("HTTP/1.1 200");
      }
    } finally {
      for (Socket socket : held) {
        socket.close();
      }
    }
  }

  private Socket client() throws IOException {
    Socket socket = new Socket("127.0.0.1", proxy.listenAddress().getPort());
    socket.setSoTimeout(5000);
    return socket;
  }

  /**
   * Steps of 200 ms (a read that times out) until the proxy closes {@code socket}, each sending a
   * byte of a head that never ends when {@code slow}; {@link #MAX_STEPS} if it never does.
   */
  private static int stepsUntilCut(Socket socket, boolean slow) throws IOException {
    socket.setSoTimeout(200);
    OutputStream out = socket.getOutputStream();
    if (slow) {
      out.write(SLOW_START);
      out.flush();
    }
    for (int step = 0; step < MAX_STEPS; step++) {
      try {
        if (slow) {
          out.write('a');
          out.flush();
        }
        if (socket.getInputStream().read() < 0) {
          return step;
        }
      } catch (SocketTimeoutException e) {
        continue; // still open: the next step
      } catch (IOException e) {
        return step; // reset by the proxy
      }
    }
    return MAX_STEPS;
  }

  /** Waits, 200 ms a step on {@code pacer}'s reads, until the data port counts {@code count}. */
  private void awaitClients(int count, Socket pacer) throws IOException {
    pacer.setSoTimeout(200);
    for (int step = 0; step < MAX_STEPS && proxy.clients() != count; step++) {
      try {
        assertThat(pacer.getInputStream().read()).as("the pacer gets nothing").isEqualTo(-2);
      } catch (SocketTimeoutException e) {
        // 200 ms passed
      }
    }
    pacer.setSoTimeout(5000);
    assertThat(proxy.clients()).as("client connections the data port counts").isEqualTo(count);
  }

  private static int readOrEnd(Socket socket) throws IOException {
    try {
      return socket.getInputStream().read();
    } catch (IOException e) {
      return -1; // reset
    }
  }

  /** Sends a GET and reads the whole answer (nothing is left to read after); its status line. */
  private static String answer(Socket socket) throws IOException {
    socket.setSoTimeout(5000);
    socket.getOutputStream().write(REQUEST);
    socket.getOutputStream().flush();
    Http1Reader in = Proxies.reader(socket);
    Http1Head head = in.readHead();
    in.relayBody(Http1Body.ofLength(head.contentLength()), Http1Reader.Sink.discard());
    assertThat(in.buffered()).as("bytes after the answer").isZero();
    return head.startLine();
  }
}
