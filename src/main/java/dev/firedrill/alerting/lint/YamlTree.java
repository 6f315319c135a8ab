package dev.firedrill.alerting.lint;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * A YAML document read in one streaming pass into a tree, remembering where every JSON pointer
 * starts, so that a problem names its line and column.
 */
final class YamlTree {

  private static final YAMLFactory YAML = new YAMLFactory();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** The document; null when the file is empty. */
  final JsonNode root;
  private final String file;
  private final Map<String, int[]> positions;

  private YamlTree(String file, JsonNode root, Map<String, int[]> positions) {
    this.file = file;
    this.root = root;
    this.positions = positions;
  }

  /** Reads the text; malformed YAML becomes the one problem in {@code problems}, and null is returned. */
  static YamlTree read(String file, String content, List<ReadProblem> problems) {
    Map<String, int[]> positions = new HashMap<>();
    positions.put("", new int[] {1, 1});
    String[] at = {""};
    try (JsonParser parser = YAML.createParser(content)) {
      JsonNode root = parser.nextToken() == null ? null : value(parser, "", positions, at, file, problems);
      return new YamlTree(file, root, positions);
    } catch (JsonProcessingException e) {
      if (e.getCause() instanceof MarkedYAMLException yaml && yaml.getProblemMark() != null) {
        Mark mark = yaml.getProblemMark();
        String reason = yaml.getProblem() != null ? yaml.getProblem() : yaml.getContext();
        problems.add(new ReadProblem(file, at[0], "malformed YAML: " + firstLine(reason), mark.getLine() + 1,
            mark.getColumn() + 1));
      } else {
        JsonLocation location = e.getLocation() != null ? e.getLocation() : JsonLocation.NA;
        problems.add(new ReadProblem(file, at[0], "malformed YAML: " + firstLine(e.getOriginalMessage()),
            Math.max(1, location.getLineNr()), Math.max(1, location.getColumnNr())));
      }
      return null;
    } catch (IOException e) {
      problems.add(new ReadProblem(file, "", "cannot read: " + e.getMessage(), 0, 0));
      return null;
    }
  }

  private static JsonNode value(JsonParser p, String pointer, Map<String, int[]> positions, String[] at, String file,
      List<ReadProblem> problems) throws IOException {
    at[0] = pointer;
    positions.putIfAbsent(pointer, position(p.currentTokenLocation()));
    JsonToken token = p.currentToken();
    switch (token) {
      case START_OBJECT: {
        ObjectNode object = NODES.objectNode();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          String child = pointer + "/" + name.replace("~", "~0").replace("/", "~1");
          int[] where = position(p.currentTokenLocation());
          if (object.has(name)) {
            problems.add(new ReadProblem(file, child, "duplicate key; each key may appear once", where[0], where[1]));
          } else {
            positions.put(child, where);
          }
          p.nextToken();
          object.set(name, value(p, child, positions, at, file, problems));
          at[0] = pointer;
        }
        return object;
      }
      case START_ARRAY: {
        ArrayNode array = NODES.arrayNode();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          array.add(value(p, pointer + "/" + array.size(), positions, at, file, problems));
          at[0] = pointer;
        }
        return array;
      }
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
      case VALUE_TRUE:
      case VALUE_FALSE:
        return NODES.textNode(p.getText()); // rule files hold text: a label value 1 is the string "1"
      case VALUE_NULL:
        return NODES.nullNode();
      default:
        return NODES.textNode(p.getText());
    }
  }

  /** A problem at the pointer, positioned at it or at its nearest ancestor in the file. */
  ReadProblem problem(String pointer, String message) {
    String at = pointer;
    while (!positions.containsKey(at)) {
      at = at.substring(0, at.lastIndexOf('/'));
    }
    int[] where = positions.get(at);
    return new ReadProblem(file, pointer, message, where[0], where[1]);
  }

  /** The line where the pointer starts, 0 when it is not in the file. */
  int line(String pointer) {
    int[] where = positions.get(pointer);
    return where == null ? 0 : where[0];
  }

  private static int[] position(JsonLocation location) {
    return new int[] {Math.max(1, location.getLineNr()), Math.max(1, location.getColumnNr())};
  }

  private static String firstLine(String reason) {
    return reason == null ? "unexpected input" : reason.strip().lines().findFirst().orElse("unexpected input");
  }
}
