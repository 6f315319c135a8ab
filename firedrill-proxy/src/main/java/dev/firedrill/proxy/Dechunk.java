package dev.firedrill.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

/** Decodes a chunked body that {@link HttpInput#relayChunked} already checked. */
final class Dechunk {

  private Dechunk() {}

  static void into(byte[] framed, ByteArrayOutputStream body, int max) throws IOException {
    int at = 0;
    while (at < framed.length) {
      int lineEnd = indexOf(framed, at);
      String line = new String(framed, at, lineEnd - at, java.nio.charset.StandardCharsets.ISO_8859_1);
      int semicolon = line.indexOf(';');
      int size = Integer.parseInt((semicolon >= 0 ? line.substring(0, semicolon) : line).strip(), 16);
      at = lineEnd + 2;
      if (size == 0) {
        return;
      }
      if (body.size() + size > max) {
        throw new IOException("chunked request body above " + max + " bytes");
      }
      body.write(framed, at, size);
      at += size + 2;
    }
  }

  private static int indexOf(byte[] bytes, int from) throws IOException {
    for (int i = from; i + 1 < bytes.length; i++) {
      if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
        return i;
      }
    }
    throw new IOException("malformed chunked body");
  }
}
