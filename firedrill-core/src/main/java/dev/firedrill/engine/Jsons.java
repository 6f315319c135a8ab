package dev.firedrill.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.Numbers;

/** The engine's one ObjectMapper and the JSON conventions of the journal. */
final class Jsons {

  static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private Jsons() {}

  static JsonNode tree(Object value) {
    return MAPPER.valueToTree(value);
  }

  /** JSON has no NaN or infinities: write them as Prometheus does, as strings. */
  static void putNumber(ObjectNode node, String field, double value) {
    if (Double.isFinite(value)) {
      node.put(field, value);
    } else {
      node.put(field, Numbers.format(value));
    }
  }
}
