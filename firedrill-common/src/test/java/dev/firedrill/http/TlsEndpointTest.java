package dev.firedrill.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tls} against real HTTPS servers on loopback (the JDK's), with a CA, a server certificate
 * and a client certificate made for the test: the CA file, server_name, insecure_skip_verify and
 * mutual TLS, each shown to be needed by the request that fails without it.
 */
class TlsEndpointTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  @TempDir static Path dir;
  private static TestPki pki;
  private static HttpsServer server;
  private static HttpsServer mutual;

  @BeforeAll
  static void start() throws Exception {
    pki = TestPki.create(dir, "EC");
    SSLContext context = pki.serverContext();
    server = serve(context, false);
    mutual = serve(context, true);
  }

  private static HttpsServer serve(SSLContext context, boolean needClientAuth) throws IOException {
    HttpsServer https = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    https.setHttpsConfigurator(
        new HttpsConfigurator(context) {
          @Override
          public void configure(HttpsParameters params) {
            SSLParameters parameters = context.getDefaultSSLParameters();
            parameters.setNeedClientAuth(needClientAuth);
            params.setSSLParameters(parameters);
          }
        });
    https.createContext(
        "/",
        exchange -> {
          String who = "anonymous";
          if (exchange instanceof HttpsExchange secure) {
            try {
              who = secure.getSSLSession().getPeerPrincipal().getName();
            } catch (javax.net.ssl.SSLPeerUnverifiedException e) {
              who = "anonymous";
            }
          }
          byte[] body = who.getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    https.start();
    return https;
  }

  @AfterAll
  static void stop() {
    server.stop(0);
    mutual.stop(0);
  }

  private static Tls tls(Path ca, Path cert, Path key, String serverName, boolean insecure) {
    return new Tls(
        Optional.ofNullable(ca),
        Optional.ofNullable(cert),
        Optional.ofNullable(key),
        Optional.ofNullable(serverName),
        insecure);
  }

  private static String get(HttpsServer target, Tls tls) throws Exception {
    HttpEndpoint endpoint =
        HttpEndpoint.open(
            "prometheus",
            new HttpSettings(Map.of(), Optional.empty(), Optional.empty(), Optional.of(tls)),
            TIMEOUT,
            Map.of());
    URI url =
        URI.create(
            "https://127.0.0.1:" + target.getAddress().getPort() + "/api/v1/status/buildinfo");
    HttpRequest request =
        endpoint.authorize(HttpRequest.newBuilder(url).timeout(TIMEOUT)).GET().build();
    HttpResponse<String> response =
        endpoint.client().send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  @Test
  void theCaFileAndServerNameVerifyAServerNamedOtherwiseThanItsUrl() throws Exception {
    assertThat(get(server, tls(pki.caPem(), null, null, TestPki.SERVER_NAME, false)))
        .isEqualTo("anonymous");
  }

  @Test
  void withoutServerNameTheUrlsHostIsVerifiedAndFails() {
    assertThatThrownBy(() -> get(server, tls(pki.caPem(), null, null, null, false)))
        .hasRootCauseInstanceOf(java.security.cert.CertificateException.class)
        .isInstanceOf(SSLHandshakeException.class);
  }

  @Test
  void aServerNameTheCertificateDoesNotHoldFails() {
    assertThatThrownBy(() -> get(server, tls(pki.caPem(), null, null, "other.internal", false)))
        .isInstanceOf(SSLHandshakeException.class)
        .hasStackTraceContaining("not valid for server_name other.internal");
  }

  @Test
  void withoutTheCaFileTheJdksTrustStoreDoesNotKnowTheServer() {
    assertThatThrownBy(() -> get(server, tls(null, null, null, TestPki.SERVER_NAME, false)))
        .isInstanceOf(SSLHandshakeException.class)
        .hasStackTraceContaining("PKIX path building failed");
  }

  @Test
  void insecureSkipVerifyTakesAnyCertificate() throws Exception {
    assertThat(get(server, tls(null, null, null, null, true))).isEqualTo("anonymous");
  }

  @Test
  void aClientCertificateOpensAServerThatRequiresOne() throws Exception {
    assertThatThrownBy(() -> get(mutual, tls(pki.caPem(), null, null, TestPki.SERVER_NAME, false)))
        .isInstanceOf(IOException.class);

    String who =
        get(
            mutual,
            tls(pki.caPem(), pki.clientCertPem(), pki.clientKeyPem(), TestPki.SERVER_NAME, false));

    assertThat(who).isEqualTo("CN=firedrill drill");
  }

  @Test
  void pemFilesThatAreNotUsableAreNamedWithoutTheirContent() throws Exception {
    Path notPem = dir.resolve("not.pem");
    Files.writeString(notPem, "s3cr3t-not-a-certificate");
    Path sec1 = dir.resolve("sec1.pem");
    Files.writeString(sec1, "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n");

    assertThatThrownBy(
            () ->
                HttpEndpoint.open(
                    "alertmanager",
                    new HttpSettings(
                        Map.of(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.of(tls(notPem, null, null, null, false))),
                    TIMEOUT,
                    Map.of()))
        .isInstanceOf(HttpSettingsException.class)
        .hasMessage(
            "alertmanager.tls.ca_file: "
                + notPem
                + ": no PEM certificate in the file (expected"
                + " -----BEGIN CERTIFICATE-----)");
    assertThatThrownBy(
            () ->
                HttpEndpoint.open(
                    "prometheus",
                    new HttpSettings(
                        Map.of(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.of(tls(pki.caPem(), pki.clientCertPem(), sec1, null, false))),
                    TIMEOUT,
                    Map.of()))
        .hasMessage(
            "prometheus.tls.key_file: "
                + sec1
                + ": an EC key in SEC1 form (expected PKCS#8, -----BEGIN"
                + " PRIVATE KEY-----; convert it with: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8)");
    Path missing = dir.resolve("missing.pem");
    assertThatThrownBy(
            () ->
                HttpEndpoint.open(
                    "markers.grafana",
                    new HttpSettings(
                        Map.of(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.of(tls(missing, null, null, null, false))),
                    TIMEOUT,
                    Map.of()))
        .hasMessage(
            "markers.grafana.tls.ca_file: " + missing + ": no such file (expected a PEM file)");
  }
}
