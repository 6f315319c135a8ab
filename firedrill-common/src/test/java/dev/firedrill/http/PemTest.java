package dev.firedrill.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Private keys from PEM with the JDK alone: PKCS#8 (RSA, EC) and PKCS#1 RSA; the others refused
 * with the way out.
 */
class PemTest {

  @TempDir Path dir;

  private Path pem(String type, byte[] der) throws Exception {
    Path file = dir.resolve(type.replace(' ', '-') + ".pem");
    Files.writeString(
        file,
        "-----BEGIN "
            + type
            + "-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der)
            + "\n-----END "
            + type
            + "-----\n");
    return file;
  }

  @Test
  void pkcs8KeysOfBothAlgorithmsAreRead() throws Exception {
    for (String algorithm : new String[] {"RSA", "EC"}) {
      PrivateKey key = KeyPairGenerator.getInstance(algorithm).generateKeyPair().getPrivate();
      assertThat(Pem.privateKey(pem("PRIVATE KEY", key.getEncoded()), "tls.key_file"))
          .isEqualTo(key);
    }
  }

  @Test
  void aPkcs1RsaKeyIsWrappedIntoPkcs8() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    PrivateKey key = generator.generateKeyPair().getPrivate();
    byte[] pkcs8 = key.getEncoded();
    // a 2048-bit key's PKCS#8: SEQUENCE(4) version(3) algorithm(15) OCTET STRING header(4), then
    // the PKCS#1 key
    byte[] pkcs1 = Arrays.copyOfRange(pkcs8, 26, pkcs8.length);

    assertThat(Pem.privateKey(pem("RSA PRIVATE KEY", pkcs1), "tls.key_file")).isEqualTo(key);
  }

  @Test
  void anEncryptedKeyIsRefusedWithTheCommandThatConvertsIt() throws Exception {
    Path file = pem("ENCRYPTED PRIVATE KEY", new byte[] {1, 2, 3});

    assertThatThrownBy(() -> Pem.privateKey(file, "prometheus.tls.key_file"))
        .hasMessage(
            "prometheus.tls.key_file: "
                + file
                + ": the key is encrypted (expected an unencrypted PKCS#8 key;"
                + " convert it with: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8)");
  }
}
