package dev.firedrill.spring.chaosmonkey;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The module's one Jackson mapper, for the bodies it sends and the answers it reads (firedrill has
 * no shared one: each package keeps its own, as core's engine.Jsons does).
 */
final class Json {

  static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}
}
