package dev.firedrill.embedded.alertmanager.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** The API's JSON helpers. */
final class Json {

  static final ObjectMapper MAPPER = new ObjectMapper();

  /** go-openapi's strfmt.DateTime: always three fractional digits. */
  private static final DateTimeFormatter MILLIS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Json() {}

  static String string(String text) {
    try {
      return MAPPER.writeValueAsString(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a string cannot fail to encode", e);
    }
  }

  static String time(Instant at) {
    return MILLIS.format(at);
  }
}
