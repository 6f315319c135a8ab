package dev.firedrill.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * What a client's socket sees of {@link Misbehaviour#RESET_MID_BODY} and {@link
 * Misbehaviour#CUT_MID_BODY}: the same head and half body, then a reset (the read fails with
 * "Connection reset") or an end of stream (FIN). The JDK's HTTP client reports both as the same
 * short read, which is why the misbehaving-backend tests cannot tell them apart by message.
 */
class StubHttpServerResetTest {

  private static final String BODY = "{\"status\":\"success\",\"data\":{\"result\":[]}}";

  /** Sends one GET on a raw socket; what was read before the connection ended, and how it ended. */
  private record Read(String text, Throwable end) {}

  private static Read get(StubHttpServer stub) throws Exception {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), stub.port())) {
      socket.setSoTimeout(10_000);
      socket
          .getOutputStream()
          .write(
              "GET /api/v1/alerts HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII));
      ByteArrayOutputStream read = new ByteArrayOutputStream();
      InputStream in = socket.getInputStream();
      Throwable end =
          catchThrowable(
              () -> {
                byte[] buffer = new byte[4096];
                for (int n; (n = in.read(buffer)) >= 0; ) {
                  read.write(buffer, 0, n);
                }
              });
      return new Read(read.toString(StandardCharsets.UTF_8), end);
    }
  }

  @Test
  void aResetMidBodySendsTheHeadAndHalfTheBodyThenARst() throws Exception {
    try (StubHttpServer stub = StubHttpServer.start()) {
      stub.respondJson(200, BODY);
      Misbehaviour.RESET_MID_BODY.on(stub);

      Read read = get(stub);

      assertThat(read.text())
          .startsWith("HTTP/1.1 200 ")
          .contains("Content-Length: " + BODY.length() + "\r\n")
          .endsWith("\r\n\r\n" + BODY.substring(0, BODY.length() / 2));
      assertThat(read.end()).isInstanceOf(SocketException.class).hasMessage("Connection reset");
    }
  }

  @Test
  void aCutMidBodyEndsTheStreamWithAFin() throws Exception {
    try (StubHttpServer stub = StubHttpServer.start()) {
      stub.respondJson(200, BODY);
      Misbehaviour.CUT_MID_BODY.on(stub);

      Read read = get(stub);

      assertThat(read.text()).endsWith("\r\n\r\n" + BODY.substring(0, BODY.length() / 2));
      assertThat(read.end()).isNull();
    }
  }
}
