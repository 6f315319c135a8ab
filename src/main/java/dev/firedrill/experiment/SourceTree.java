package dev.firedrill.experiment;

import com.fasterxml.jackson.core.JsonFactory;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * The one place where Jackson reads text: a single streaming pass that builds the tree and records,
 * for every JSON pointer, where it starts (the key of an object member; the first token of an
 * array element). Malformed input becomes a {@link Problem} with line and column.
 */
final class SourceTree {

  /** A 1-based position in the file. */
  record Position(int line, int column) {
    static final Position START = new Position(1, 1);
  }

  /** Thrown for malformed text; carries the one problem. */
  static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;
    final transient Problem problem;

    Malformed(Problem problem) {
      super(problem.toString());
      this.problem = problem;
    }
  }

  private static final JsonFactory JSON = new JsonFactory();
  private static final YAMLFactory YAML = new YAMLFactory();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  /** Quoted excerpts in parser messages may be a secret the user pasted; they are never echoed. */
  private static final Pattern QUOTED = Pattern.compile("'(?!(?:null|true|false|NaN)'|\\\\)[^'\\s]{2,}'");

  /** The document, or null when it is empty. */
  JsonNode root;
  /** Where each JSON pointer starts; the root is always line 1, column 1 (the file as a whole). */
  final Map<String, Position> positions = new HashMap<>();
  /** Duplicate keys; everything else about the content is judged by the loader. */
  final List<Problem> problems = new ArrayList<>();

  private final String file;
  /** The pointer being read, for the problem of malformed text. */
  private String at = "";

  private SourceTree(String file) {
    this.file = file;
    positions.put("", Position.START);
  }

  static boolean isJson(String fileName, String content) {
    String lower = fileName.toLowerCase(java.util.Locale.ROOT);
    if (lower.endsWith(".json")) {
      return true;
    }
    if (lower.endsWith(".yaml") || lower.endsWith(".yml")) {
      return false;
    }
    String start = content.stripLeading();
    return start.startsWith("{") || start.startsWith("[");
  }

  /** Reads the text in one pass; throws on malformed text. */
  static SourceTree read(String file, String content) throws Malformed {
    if (content.startsWith("\uFEFF")) {
      content = content.substring(1);
    }
    boolean json = isJson(file, content);
    SourceTree tree = new SourceTree(file);
    try (JsonParser parser = (json ? JSON : YAML).createParser(content)) {
      tree.root = parser.nextToken() == null ? null : tree.value(parser, "");
      if (tree.root != null && parser.nextToken() != null) {
        tree.at = "";
        throw new Malformed(tree.problem(parser.currentTokenLocation(),
            "expected one " + (json ? "JSON value" : "YAML document") + ", found more after it"));
      }
      return tree;
    } catch (JsonProcessingException e) {
      throw new Malformed(tree.malformed(e, json));
    } catch (IOException e) {
      throw new Malformed(new Problem(file, "", "cannot read: " + e.getMessage(), 0, 0));
    }
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
          String child = pointer + "/" + escape(name);
          Position position = position(p.currentTokenLocation());
          if (object.has(name)) {
            problems.add(new Problem(file, child, "duplicate key; each key may appear once",
                position.line(), position.column()));
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
      case VALUE_STRING:
        return NODES.textNode(p.getText());
      case VALUE_NUMBER_INT:
        return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
            ? NODES.numberNode(p.getBigIntegerValue())
            : NODES.numberNode(p.getLongValue());
      case VALUE_NUMBER_FLOAT:
        return NODES.numberNode(p.getDoubleValue());
      case VALUE_TRUE:
      case VALUE_FALSE:
        return NODES.booleanNode(token == JsonToken.VALUE_TRUE);
      case VALUE_NULL:
        return NODES.nullNode();
      default:
        return NODES.textNode(p.getText());
    }
  }

  private Problem malformed(JsonProcessingException e, boolean json) {
    String what = json ? "malformed JSON: " : "malformed YAML: ";
    if (e.getCause() instanceof MarkedYAMLException yaml && yaml.getProblemMark() != null) {
      Mark mark = yaml.getProblemMark();
      String reason = yaml.getProblem() != null ? yaml.getProblem() : yaml.getContext();
      if (reason != null && reason.startsWith("expected <block end>")) {
        reason = "the indentation does not line up with the lines above (" + reason + ")";
      }
      return new Problem(file, at, what + clean(reason), mark.getLine() + 1, mark.getColumn() + 1);
    }
    JsonLocation location = e.getLocation() != null ? e.getLocation() : JsonLocation.NA;
    return problem(location, what + clean(e.getOriginalMessage()));
  }

  private Problem problem(JsonLocation location, String message) {
    Position position = position(location);
    return new Problem(file, at, message, position.line(), position.column());
  }

  private static String clean(String reason) {
    String first = reason == null ? "unexpected input" : reason.strip().lines().findFirst().orElse("");
    return QUOTED.matcher(first).replaceAll("(not shown)");
  }

  private static Position position(JsonLocation location) {
    return new Position(Math.max(1, location.getLineNr()), Math.max(1, location.getColumnNr()));
  }

  static String escape(String key) {
    return key.replace("~", "~0").replace("/", "~1");
  }
}
