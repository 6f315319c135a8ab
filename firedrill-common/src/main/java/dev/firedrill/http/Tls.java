package dev.firedrill.http;

import java.nio.file.Path;
import java.util.Optional;

/**
 * TLS toward a server, as Prometheus's own {@code tls_config} has it: a PEM CA bundle to trust (the
 * JDK's trust store when absent), a PEM client certificate and PKCS#8 key for mutual TLS, the name
 * to verify the server's certificate against instead of the URL's host, and, for a lab only, no
 * verification at all.
 */
public record Tls(
    Optional<Path> caFile,
    Optional<Path> certFile,
    Optional<Path> keyFile,
    Optional<String> serverName,
    boolean insecureSkipVerify) {

  public Tls {
    caFile = caFile == null ? Optional.empty() : caFile;
    certFile = certFile == null ? Optional.empty() : certFile;
    keyFile = keyFile == null ? Optional.empty() : keyFile;
    serverName = serverName == null ? Optional.empty() : serverName;
    if (certFile.isPresent() != keyFile.isPresent()) {
      throw new IllegalArgumentException(
          "tls: cert_file and key_file go together (expected both or neither)");
    }
  }
}
