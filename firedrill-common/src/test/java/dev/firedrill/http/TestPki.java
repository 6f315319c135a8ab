package dev.firedrill.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throwaway CA, a server certificate it signs (for {@code prometheus.internal} only, so that a
 * URL naming 127.0.0.1 needs server_name) and a client certificate, made with the JDK's keytool;
 * the client's key written as a PKCS#8 PEM file, as users have them.
 */
record TestPki(
    Path dir, Path caPem, Path clientCertPem, Path clientKeyPem, Path serverStore, Path caStore) {

  static final char[] PASSWORD = "changeit".toCharArray();
  static final String SERVER_NAME = "prometheus.internal";

  static TestPki create(Path dir, String clientKeyAlgorithm)
      throws IOException, InterruptedException, GeneralSecurityException {
    Path ca = dir.resolve("ca.p12");
    Path server = dir.resolve("server.p12");
    Path client = dir.resolve("client.p12");
    keytool(
        "-genkeypair",
        "-alias",
        "ca",
        "-keyalg",
        "RSA",
        "-keysize",
        "2048",
        "-dname",
        "CN=firedrill test CA",
        "-ext",
        "bc:c",
        "-validity",
        "2",
        "-keystore",
        ca.toString());
    keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        "ca",
        "-keystore",
        ca.toString(),
        "-file",
        dir.resolve("ca.pem").toString());
    signed(
        dir,
        ca,
        server,
        "server",
        "RSA",
        "CN=" + SERVER_NAME,
        "san=dns:" + SERVER_NAME,
        "eku=serverAuth");
    Path clientCert =
        signed(
            dir,
            ca,
            client,
            "client",
            clientKeyAlgorithm,
            "CN=firedrill drill",
            null,
            "eku=clientAuth");
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(client)) {
      store.load(in, PASSWORD);
    }
    Key key = store.getKey("client", PASSWORD);
    Path keyPem = dir.resolve("client-key.pem");
    Files.writeString(
        keyPem,
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(key.getEncoded())
            + "\n-----END PRIVATE KEY-----\n");
    return new TestPki(dir, dir.resolve("ca.pem"), clientCert, keyPem, server, ca);
  }

  /**
   * A key pair in {@code store}, its certificate signed by the CA and imported with the CA above
   * it.
   */
  private static Path signed(
      Path dir,
      Path ca,
      Path store,
      String alias,
      String algorithm,
      String dname,
      String san,
      String eku)
      throws IOException, InterruptedException {
    keytool(
        "-genkeypair",
        "-alias",
        alias,
        "-keyalg",
        algorithm,
        "-dname",
        dname,
        "-validity",
        "2",
        "-keystore",
        store.toString());
    Path request = dir.resolve(alias + ".csr");
    Path cert = dir.resolve(alias + ".pem");
    keytool(
        "-certreq", "-alias", alias, "-keystore", store.toString(), "-file", request.toString());
    List<String> gencert =
        new ArrayList<>(
            List.of(
                "-gencert",
                "-rfc",
                "-alias",
                "ca",
                "-keystore",
                ca.toString(),
                "-infile",
                request.toString(),
                "-outfile",
                cert.toString(),
                "-validity",
                "2",
                "-ext",
                eku));
    if (san != null) {
      gencert.addAll(List.of("-ext", san));
    }
    keytool(gencert.toArray(String[]::new));
    keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        "ca",
        "-keystore",
        store.toString(),
        "-file",
        dir.resolve("ca.pem").toString());
    keytool(
        "-importcert", "-alias", alias, "-keystore", store.toString(), "-file", cert.toString());
    return cert;
  }

  private static void keytool(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    command.addAll(List.of("-storetype", "PKCS12", "-storepass", new String(PASSWORD)));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IOException("keytool " + String.join(" ", args) + " failed: " + output);
    }
  }

  /**
   * The server's side: its key and certificate, and, for mutual TLS, the CA its clients must be
   * signed by.
   */
  SSLContext serverContext() throws IOException, GeneralSecurityException {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(serverStore)) {
      keys.load(in, PASSWORD);
    }
    KeyManagerFactory keyManagers =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keyManagers.init(keys, PASSWORD);
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(caPem)) {
      trust.setCertificateEntry(
          "ca", java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory trustManagers =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trustManagers.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
    return context;
  }
}
