package dev.firedrill.alerting.routes;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.firedrill.experiment.Problem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * A YAML document read in one streaming pass, with the line and column where each JSON pointer
 * starts. Numbers are kept as the text written (Alertmanager reads them into strings as written).
 */
final class YamlDocument {

  private static final YAMLFactory YAML = new YAMLFactory();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  final String file;
  /** Null when the document is empty. */
  JsonNode root;
  final Map<String, int[]> positions = new HashMap<>();
  final List<Problem> problems = new ArrayList<>();
  private String at = "";

  private YamlDocument(String file) {
    this.file = file;
    positions.put("", new int[] {1, 1});
  }

  /** The document, or a single problem for malformed YAML. */
  static YamlDocument read(String file, String content) throws RouteConfigException {
    YamlDocument document = new YamlDocument(file);
    String text = content.startsWith("\uFEFF") ? content.substring(1) : content;
    try (JsonParser parser = YAML.createParser(text)) {
      document.root = parser.nextToken() == null ? null : document.value(parser, "");
      return document;
    } catch (JsonProcessingException e) {
      throw new RouteConfigException(List.of(document.malformed(e)));
    } catch (IOException e) {
      throw new RouteConfigException(List.of(new Problem(file, "", "cannot read: " + e.getMessage(), 0, 0)));
    }
  }

  /** A problem at the pointer, or at its nearest ancestor that is in the file. */
  Problem problem(String pointer, String message) {
    String where = pointer;
    while (!positions.containsKey(where)) {
      where = where.substring(0, Math.max(0, where.lastIndexOf('/')));
    }
    int[] position = positions.get(where);
    return new Problem(file, pointer, message, position[0], position[1]);
  }

  private JsonNode value(JsonParser p, String pointer) throws IOException {
    at = pointer;
    positions.putIfAbsent(pointer, position(p.currentTokenLocation()));
    JsonToken token = p.currentToken();
    switch (token) {
      case START_OBJECT: {
        ObjectNode object = NODES.objectNode();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          String child = pointer + "/" + name.replace("~", "~0").replace("/", "~1");
          int[] position = position(p.currentTokenLocation());
          if (object.has(name)) {
            problems.add(new Problem(file, child, "duplicate key; each key may appear once", position[0], position[1]));
          } else {
            positions.put(child, position);
          }
          p.nextToken();
          object.set(name, value(p, child));
          at = pointer;
        }
        return object;
      }
      case START_ARRAY: {
        ArrayNode array = NODES.arrayNode();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          array.add(value(p, pointer + "/" + array.size()));
          at = pointer;
        }
        return array;
      }
      case VALUE_TRUE:
      case VALUE_FALSE:
        return NODES.booleanNode(token == JsonToken.VALUE_TRUE);
      case VALUE_NULL:
        return NODES.nullNode();
      default:
        return NODES.textNode(p.getText());
    }
  }

  private Problem malformed(JsonProcessingException e) {
    if (e.getCause() instanceof MarkedYAMLException yaml && yaml.getProblemMark() != null) {
      Mark mark = yaml.getProblemMark();
      String reason = yaml.getProblem() != null ? yaml.getProblem() : yaml.getContext();
      return new Problem(file, at, "malformed YAML: " + firstLine(reason), mark.getLine() + 1, mark.getColumn() + 1);
    }
    int[] position = position(e.getLocation() != null ? e.getLocation() : JsonLocation.NA);
    return new Problem(file, at, "malformed YAML: " + firstLine(e.getOriginalMessage()), position[0], position[1]);
  }

  private static String firstLine(String reason) {
    return reason == null ? "unexpected input" : reason.strip().lines().findFirst().orElse("");
  }

  private static int[] position(JsonLocation location) {
    return new int[] {Math.max(1, location.getLineNr()), Math.max(1, location.getColumnNr())};
  }
}
