package dev.firedrill.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class LoopbackPortsTest {

  @Test
  void freePortsAreDistinctBindableAndBelowTheEphemeralRange() throws Exception {
    int[] ports = Loopback.freePorts(20);

    assertThat(Arrays.stream(ports).distinct().count()).isEqualTo(20);
    assertThat(Arrays.stream(ports).boxed().toList())
        .allSatisfy(port -> assertThat(port).isBetween(20000, Loopback.ephemeralStart() - 1));
    for (int port : ports) {
      try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        assertThat(socket.getLocalPort()).isEqualTo(port);
      }
    }
  }

  @Test
  void aPortInUseIsNeverHandedOut() throws Exception {
    try (ServerSocket held =
        new ServerSocket(Loopback.freePort(), 1, InetAddress.getLoopbackAddress())) {
      for (int i = 0; i < 50; i++) {
        assertThat(Loopback.freePort()).isNotEqualTo(held.getLocalPort());
      }
    }
  }
}
