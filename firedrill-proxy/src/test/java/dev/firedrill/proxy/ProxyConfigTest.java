package dev.firedrill.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The admin API breaks traffic on request: off the loopback address only behind a token. */
class ProxyConfigTest {

  private static ProxyConfig config(InetSocketAddress admin, Optional<String> token) {
    return new ProxyConfig(
        "payments",
        ProxyConfig.Mode.HTTP,
        new InetSocketAddress("127.0.0.1", 0),
        URI.create("http://127.0.0.1:9000"),
        admin,
        Optional.empty(),
        token);
  }

  @Test
  void anAdminApiOnEveryAddressWithoutATokenIsRefused() {
    assertThatThrownBy(() -> config(new InetSocketAddress("0.0.0.0", 8474), Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "admin 0.0.0.0:8474: an admin API off the loopback address needs a token (expected"
                + " --admin-token-env, or --admin 127.0.0.1:PORT)");
  }

  @Test
  void anAdminApiOnEveryAddressWithATokenOrOnLoopbackIsAllowed() {
    assertThat(
            config(new InetSocketAddress("0.0.0.0", 8474), Optional.of("t0ken")).admin().getPort())
        .isEqualTo(8474);
    assertThat(config(new InetSocketAddress("127.0.0.1", 8474), Optional.empty()).admin().getPort())
        .isEqualTo(8474);
  }
}
