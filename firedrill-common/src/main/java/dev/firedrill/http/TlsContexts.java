package dev.firedrill.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * An {@link SSLContext} from {@link Tls}: the trust, the client certificate, the name to verify.
 */
final class TlsContexts {

  private static final char[] NO_PASSWORD = new char[0];

  private TlsContexts() {}

  /** {@code name} is the settings' key, such as {@code prometheus.tls}, for messages. */
  static SSLContext build(String name, Tls tls) throws HttpSettingsException {
    try {
      TrustManager trust = tls.insecureSkipVerify() ? new TrustingAll() : verifying(name, tls);
      KeyManager[] keys = tls.certFile().isPresent() ? keyManagers(name, tls) : null;
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys, new TrustManager[] {trust}, null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new HttpSettingsException(
          name
              + ": cannot set up TLS ("
              + e.getClass().getSimpleName()
              + ": "
              + e.getMessage()
              + ")",
          e);
    }
  }

  private static X509ExtendedTrustManager verifying(String name, Tls tls)
      throws GeneralSecurityException, IOException, HttpSettingsException {
    KeyStore store = null;
    if (tls.caFile().isPresent()) {
      store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      int i = 0;
      for (X509Certificate ca : Pem.certificates(tls.caFile().get(), name + ".ca_file")) {
        store.setCertificateEntry("ca-" + i++, ca);
      }
    }
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(store); // null: the JDK's own trust store
    for (TrustManager manager : factory.getTrustManagers()) {
      if (manager instanceof X509ExtendedTrustManager extended) {
        return new Verifying(extended, tls.serverName());
      }
    }
    throw new GeneralSecurityException("the JDK offers no X.509 trust manager");
  }

  private static KeyManager[] keyManagers(String name, Tls tls)
      throws GeneralSecurityException, IOException, HttpSettingsException {
    List<X509Certificate> chain = Pem.certificates(tls.certFile().get(), name + ".cert_file");
    PrivateKey key = Pem.privateKey(tls.keyFile().get(), name + ".key_file");
    if (!chain.get(0).getPublicKey().getAlgorithm().equals(key.getAlgorithm())) {
      throw new HttpSettingsException(
          name
              + ".key_file: "
              + tls.keyFile().get()
              + ": a "
              + key.getAlgorithm()
              + " key for a "
              + chain.get(0).getPublicKey().getAlgorithm()
              + " certificate (expected the key of cert_file)");
    }
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setKeyEntry("client", key, NO_PASSWORD, chain.toArray(X509Certificate[]::new));
    KeyManagerFactory factory =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    factory.init(store, NO_PASSWORD);
    return factory.getKeyManagers();
  }

  /**
   * The JDK's chain check; the name check against {@code server_name} when it is given (the JDK's
   * HTTP client would check the URL's host, which is what server_name is there to replace).
   */
  private static final class Verifying extends X509ExtendedTrustManager {
    private final X509ExtendedTrustManager jdk;
    private final Optional<String> serverName;

    Verifying(X509ExtendedTrustManager jdk, Optional<String> serverName) {
      this.jdk = jdk;
      this.serverName = serverName;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      if (serverName.isEmpty()) {
        jdk.checkServerTrusted(chain, authType, engine);
      } else {
        checkServerTrusted(
            chain, authType); // the chain, then server_name instead of the URL's host
      }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      if (serverName.isEmpty()) {
        jdk.checkServerTrusted(chain, authType, socket);
      } else {
        checkServerTrusted(
            chain, authType); // the chain, then server_name instead of the URL's host
      }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      jdk.checkServerTrusted(chain, authType);
      if (serverName.isPresent()) {
        Hostnames.check(chain[0], serverName.get());
      }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      jdk.checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      jdk.checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      jdk.checkClientTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return jdk.getAcceptedIssuers();
    }
  }

  /** insecure_skip_verify: any certificate, any name (a lab's self-signed server). */
  private static final class TrustingAll extends X509ExtendedTrustManager {
    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      throw new CertificateException("firedrill is a client only");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      throw new CertificateException("firedrill is a client only");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      throw new CertificateException("firedrill is a client only");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }

  /**
   * A certificate's subject alternative names against a DNS name or an IP address (no CN fallback,
   * as Go and browsers).
   */
  static final class Hostnames {
    private static final int DNS = 2;
    private static final int IP = 7;

    private Hostnames() {}

    static void check(X509Certificate certificate, String name) throws CertificateException {
      Collection<List<?>> names;
      try {
        names = certificate.getSubjectAlternativeNames();
      } catch (CertificateParsingException e) {
        throw new CertificateException(
            "the server's certificate has unreadable subject alternative names", e);
      }
      boolean literal = isIpLiteral(name);
      for (List<?> entry : names == null ? List.<List<?>>of() : names) {
        int type = (Integer) entry.get(0);
        String value = String.valueOf(entry.get(1));
        if (literal && type == IP && sameAddress(value, name)
            || !literal && type == DNS && dnsMatches(value, name)) {
          return;
        }
      }
      throw new CertificateException(
          "the server's certificate is not valid for server_name " + name);
    }

    private static boolean dnsMatches(String pattern, String name) {
      String p = pattern.toLowerCase(Locale.ROOT);
      String n = name.toLowerCase(Locale.ROOT);
      if (p.startsWith("*.")) {
        int dot = n.indexOf('.');
        return dot > 0 && n.substring(dot).equals(p.substring(1));
      }
      return p.equals(n);
    }

    private static boolean isIpLiteral(String name) {
      return name.matches("\\d{1,3}(\\.\\d{1,3}){3}") || name.contains(":");
    }

    private static boolean sameAddress(String a, String b) {
      try {
        // both are literals, so no lookup happens
        return InetAddress.getByName(a).equals(InetAddress.getByName(b));
      } catch (IOException e) {
        return false;
      }
    }
  }
}
