package dev.firedrill.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import picocli.CommandLine.Option;

/**
 * {@code --output text|json} for the commands that report; the JSON shapes are documented in
 * docs/output-json.md and held there by OutputJsonTest.
 */
final class OutputOption {

  /** The version of the JSON shapes: raised only when a documented field changes meaning. */
  static final int FORMAT_VERSION = 1;

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  enum Format {
    text,
    json
  }

  @Option(
      names = "--output",
      paramLabel = "text|json",
      defaultValue = "text",
      description =
          "text for people, json for pipelines (one document on stdout, shape in"
              + " docs/output-json.md; default: ${DEFAULT-VALUE}).")
  Format format = Format.text;

  boolean json() {
    return format == Format.json;
  }

  /** A document for {@code command}, with the fields every document has. */
  static ObjectNode document(String command) {
    ObjectNode node = JSON.createObjectNode();
    node.put("command", command);
    node.put("format_version", FORMAT_VERSION);
    return node;
  }

  static void print(PrintWriter out, ObjectNode document) {
    try {
      out.println(JSON.writeValueAsString(document));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
    }
    out.flush();
  }
}
