package dev.firedrill.http;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PEM files with the JDK alone: certificates, and private keys in PKCS#8 ({@code PRIVATE KEY}, RSA
 * or EC) or PKCS#1 ({@code RSA PRIVATE KEY}). Messages name the file and what it should hold, never
 * its content.
 */
final class Pem {

  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]*?)-----END \\1-----");
  private static final String CONVERT =
      "convert it with: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8";

  private Pem() {}

  static List<X509Certificate> certificates(Path file, String key) throws HttpSettingsException {
    String text = read(file, key);
    List<X509Certificate> certificates = new ArrayList<>();
    try {
      CertificateFactory factory = CertificateFactory.getInstance("X.509");
      for (Block block : blocks(text)) {
        if (block.type().equals("CERTIFICATE")) {
          certificates.add(
              (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(block.der())));
        }
      }
    } catch (CertificateException e) {
      throw new HttpSettingsException(
          key + ": " + file + ": a CERTIFICATE block is not a readable X.509 certificate");
    }
    if (certificates.isEmpty()) {
      throw new HttpSettingsException(
          key
              + ": "
              + file
              + ": no PEM certificate in the file"
              + " (expected -----BEGIN CERTIFICATE-----)");
    }
    return certificates;
  }

  static PrivateKey privateKey(Path file, String key) throws HttpSettingsException {
    String text = read(file, key);
    for (Block block : blocks(text)) {
      switch (block.type()) {
        case "PRIVATE KEY" -> {
          return pkcs8(block.der(), file, key);
        }
        case "RSA PRIVATE KEY" -> {
          return pkcs8(rsaPkcs1ToPkcs8(block.der()), file, key);
        }
        case "ENCRYPTED PRIVATE KEY" ->
            throw new HttpSettingsException(
                key
                    + ": "
                    + file
                    + ": the key is encrypted (expected an unencrypted PKCS#8 key; "
                    + CONVERT
                    + ")");
        case "EC PRIVATE KEY" ->
            throw new HttpSettingsException(
                key
                    + ": "
                    + file
                    + ": an EC key in SEC1 form (expected PKCS#8, -----BEGIN PRIVATE KEY-----; "
                    + CONVERT
                    + ")");
        default -> {} // certificates or parameters beside the key
      }
    }
    throw new HttpSettingsException(
        key
            + ": "
            + file
            + ": no PEM private key in the file"
            + " (expected -----BEGIN PRIVATE KEY-----)");
  }

  private static PrivateKey pkcs8(byte[] der, Path file, String key) throws HttpSettingsException {
    for (String algorithm : List.of("RSA", "EC")) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        // not this algorithm: try the next one
      }
    }
    throw new HttpSettingsException(
        key + ": " + file + ": the private key is neither RSA nor EC in PKCS#8");
  }

  /** PKCS#8's PrivateKeyInfo around a PKCS#1 RSAPrivateKey: version 0, rsaEncryption, the key. */
  private static byte[] rsaPkcs1ToPkcs8(byte[] pkcs1) {
    byte[] version = {0x02, 0x01, 0x00};
    byte[] algorithm = {
      0x30,
      0x0d,
      0x06,
      0x09,
      0x2a,
      (byte) 0x86,
      0x48,
      (byte) 0x86,
      (byte) 0xf7,
      0x0d,
      0x01,
      0x01,
      0x01,
      0x05,
      0x00
    };
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(version);
    body.writeBytes(algorithm);
    body.writeBytes(derHeader(0x04, pkcs1.length));
    body.writeBytes(pkcs1);
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    all.writeBytes(derHeader(0x30, body.size()));
    all.writeBytes(body.toByteArray());
    return all.toByteArray();
  }

  private static byte[] derHeader(int tag, int length) {
    if (length < 0x80) {
      return new byte[] {(byte) tag, (byte) length};
    }
    int bytes = length > 0xffffff ? 4 : length > 0xffff ? 3 : length > 0xff ? 2 : 1;
    byte[] header = new byte[2 + bytes];
    header[0] = (byte) tag;
    header[1] = (byte) (0x80 | bytes);
    for (int i = 0; i < bytes; i++) {
      header[2 + i] = (byte) (length >>> (8 * (bytes - 1 - i)));
    }
    return header;
  }

  private record Block(String type, byte[] der) {}

  private static List<Block> blocks(String text) {
    List<Block> blocks = new ArrayList<>();
    Matcher matcher = BLOCK.matcher(text);
    while (matcher.find()) {
      try {
        blocks.add(new Block(matcher.group(1), Base64.getMimeDecoder().decode(matcher.group(2))));
      } catch (IllegalArgumentException e) {
        // not base64: not a block we can use, reported as "no certificate/key" by the caller
      }
    }
    return blocks;
  }

  private static String read(Path file, String key) throws HttpSettingsException {
    try {
      return Files.readString(file, StandardCharsets.ISO_8859_1);
    } catch (NoSuchFileException e) {
      throw new HttpSettingsException(key + ": " + file + ": no such file (expected a PEM file)");
    } catch (IOException e) {
      throw new HttpSettingsException(
          key
              + ": "
              + file
              + ": cannot read it ("
              + e.getClass().getSimpleName()
              + "; expected a readable PEM file)");
    }
  }
}
