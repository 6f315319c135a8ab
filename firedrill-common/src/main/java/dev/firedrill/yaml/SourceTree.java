package dev.firedrill.yaml;

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
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * The one place where Jackson reads YAML (or JSON) text for checking: a single streaming pass that
 * builds the tree and records, for every JSON pointer, where it starts (the key of an object
 * member; the first token of an array element), so that a problem names its line and column.
 *
 * <p>Problems are made by the caller's {@link Problems} factory, so each reader keeps its own
 * problem type. Duplicate keys are problems; malformed text is a problem too, and then {@link
 * #malformed()} is that problem and {@link #root()} is null. Everything else about the content is
 * the caller's.
 *
 * @param <P> the caller's problem type
 */
public final class SourceTree<P> {

  /** A 1-based position in the file. */
  public record Position(int line, int column) {
    public static final Position START = new Position(1, 1);
  }

  /**
   * Makes the caller's problem: file, JSON pointer, message, line and column (0 and 0 without a
   * position).
   */
  @FunctionalInterface
  public interface Problems<P> {
    P problem(String file, String pointer, String message, int line, int column);
  }

  /** How scalars become tree nodes. */
  public enum Scalars {
    /** Numbers, booleans and null are typed. */
    TYPED,
    /**
     * Numbers stay the text written (Alertmanager reads them into strings); booleans and null are
     * typed.
     */
    TEXT_NUMBERS,
    /**
     * Numbers and booleans stay the text written (a label value 1 is the string "1"); null is
     * typed.
     */
    TEXT
  }

  /**
   * How to read.
   *
   * @param jsonByName JSON when the file name ends in .json, or (neither .json, .yaml nor .yml) the
   *     text starts with { or [; otherwise always YAML
   * @param oneDocument more than one document (or JSON value) is malformed; otherwise later ones
   *     are ignored
   * @param scalars how scalars become nodes
   * @param explain malformed text is explained for people: indentation named, quoted excerpts
   *     (perhaps a secret) not shown; otherwise the parser's first line as it is
   */
  public record Options(boolean jsonByName, boolean oneDocument, Scalars scalars, boolean explain) {
    public Options {
      Objects.requireNonNull(scalars, "scalars");
    }
  }

  private static final JsonFactory JSON = new JsonFactory();
  private static final YAMLFactory YAML = new YAMLFactory();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Quoted excerpts in parser messages may be a secret the user pasted; they are never echoed. */
  private static final Pattern QUOTED =
      Pattern.compile("'(?!(?:null|true|false|NaN)'|\\\\)[^'\\s]{2,}'");

  private final String file;
  private final Options options;
  private final Problems<P> factory;

  /** The document, or null when it is empty or malformed. */
  private JsonNode root;

  /** Where each JSON pointer starts; the root is always line 1, column 1 (the file as a whole). */
  private final Map<String, Position> positions = new HashMap<>();

  /** Duplicate keys, then the malformed text if any, in the order found. */
  private final List<P> problems = new ArrayList<>();

  private P malformed;

  /** The pointer being read, for the problem of malformed text. */
  private String at = "";

  private SourceTree(String file, Options options, Problems<P> factory) {
    this.file = file;
    this.options = options;
    this.factory = factory;
    positions.put("", Position.START);
  }

  /**
   * Whether {@code fileName} and {@code content} are read as JSON when {@link
   * Options#jsonByName()}.
   */
  public static boolean isJson(String fileName, String content) {
    String lower = fileName.toLowerCase(Locale.ROOT);
    if (lower.endsWith(".json")) {
      return true;
    }
    if (lower.endsWith(".yaml") || lower.endsWith(".yml")) {
      return false;
    }
    String start = content.stripLeading();
    return start.startsWith("{") || start.startsWith("[");
  }

  /** Reads the text in one pass; a leading byte order mark is skipped. */
  public static <P> SourceTree<P> read(
      String file, String content, Options options, Problems<P> factory) {
    if (content.startsWith("\uFEFF")) {
      content = content.substring(1);
    }
    boolean json = options.jsonByName() && isJson(file, content);
    SourceTree<P> tree = new SourceTree<>(file, options, factory);
    try (JsonParser parser = (json ? JSON : YAML).createParser(content)) {
      tree.root = parser.nextToken() == null ? null : tree.value(parser, "");
      if (options.oneDocument() && tree.root != null && parser.nextToken() != null) {
        tree.at = "";
        tree.fail(
            tree.problem(
                parser.currentTokenLocation(),
                "expected one "
                    + (json ? "JSON value" : "YAML document")
                    + ", found more after it"));
      }
    } catch (JsonProcessingException e) {
      tree.fail(tree.malformed(e, json));
    } catch (IOException e) {
      tree.fail(factory.problem(file, "", "cannot read: " + e.getMessage(), 0, 0));
    }
    return tree;
  }

  /**
   * Every document of a YAML stream ({@code ---} between them), each a tree of its own whose
   * pointers start at its root and whose positions are the file's. Reading stops at malformed text:
   * the last tree is then the malformed one. An empty text or empty document gives a tree with a
   * null root.
   */
  public static <P> List<SourceTree<P>> readDocuments(
      String file, String content, Options options, Problems<P> factory) {
    if (content.startsWith("\uFEFF")) {
      content = content.substring(1);
    }
    List<SourceTree<P>> documents = new ArrayList<>();
    SourceTree<P> tree = new SourceTree<>(file, options, factory);
    try (JsonParser parser = YAML.createParser(content)) {
      JsonToken token = parser.nextToken();
      if (token == null) {
        documents.add(tree);
      }
      while (token != null) {
        if (!documents.isEmpty()) {
          tree = new SourceTree<>(file, options, factory);
          tree.positions.put("", position(parser.currentTokenLocation()));
        }
        documents.add(tree);
        tree.root = tree.value(parser, "");
        token = parser.nextToken();
      }
    } catch (JsonProcessingException e) {
      tree.fail(tree.malformed(e, false));
      if (documents.isEmpty()) {
        documents.add(tree);
      }
    } catch (IOException e) {
      tree.fail(factory.problem(file, "", "cannot read: " + e.getMessage(), 0, 0));
      if (documents.isEmpty()) {
        documents.add(tree);
      }
    }
    return documents;
  }

  /** The document; null when it is empty or malformed. */
  public JsonNode root() {
    return root;
  }

  /** Where each JSON pointer in the file starts. */
  public Map<String, Position> positions() {
    return Collections.unmodifiableMap(positions);
  }

  /** Duplicate keys, then the malformed text if any, in the order found. */
  public List<P> problems() {
    return Collections.unmodifiableList(problems);
  }

  /** The problem of malformed text, or null when the text was read. */
  public P malformed() {
    return malformed;
  }

  /** A problem at the pointer, positioned at it or at its nearest ancestor in the file. */
  public P problem(String pointer, String message) {
    String where = pointer;
    while (!positions.containsKey(where)) {
      where = where.substring(0, Math.max(0, where.lastIndexOf('/')));
    }
    Position position = positions.get(where);
    return factory.problem(file, pointer, message, position.line(), position.column());
  }

  /** The line where the pointer starts, 0 when it is not in the file. */
  public int line(String pointer) {
    Position position = positions.get(pointer);
    return position == null ? 0 : position.line();
  }

  /** The key as a JSON pointer segment. */
  public static String escape(String key) {
    return key.replace("~", "~0").replace("/", "~1");
  }

  private void fail(P problem) {
    root = null;
    malformed = problem;
    problems.add(problem);
  }

  private JsonNode value(JsonParser p, String pointer) throws IOException {
    at = pointer;
    positions.putIfAbsent(pointer, position(p.currentTokenLocation()));
    JsonToken token = p.currentToken();
    switch (token) {
      case START_OBJECT:
        {
          ObjectNode object = NODES.objectNode();
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            String child = pointer + "/" + escape(name);
            Position position = position(p.currentTokenLocation());
            if (object.has(name)) {
              problems.add(
                  factory.problem(
                      file,
                      child,
                      "duplicate key; each key may appear once",
                      position.line(),
                      position.column()));
            } else {
              positions.put(child, position);
            }
            p.nextToken();
            object.set(name, value(p, child));
            at = pointer;
          }
          return object;
        }
      case START_ARRAY:
        {
          ArrayNode array = NODES.arrayNode();
          while (p.nextToken() != JsonToken.END_ARRAY) {
            array.add(value(p, pointer + "/" + array.size()));
            at = pointer;
          }
          return array;
        }
      case VALUE_NUMBER_INT:
        if (options.scalars() != Scalars.TYPED) {
          return NODES.textNode(p.getText());
        }
        return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
            ? NODES.numberNode(p.getBigIntegerValue())
            : NODES.numberNode(p.getLongValue());
      case VALUE_NUMBER_FLOAT:
        return options.scalars() == Scalars.TYPED
            ? NODES.numberNode(p.getDoubleValue())
            : NODES.textNode(p.getText());
      case VALUE_TRUE:
      case VALUE_FALSE:
        return options.scalars() == Scalars.TEXT
            ? NODES.textNode(p.getText())
            : NODES.booleanNode(token == JsonToken.VALUE_TRUE);
      case VALUE_NULL:
        return NODES.nullNode();
      default:
        return NODES.textNode(p.getText());
    }
  }

  private P malformed(JsonProcessingException e, boolean json) {
    String what = json ? "malformed JSON: " : "malformed YAML: ";
    if (e.getCause() instanceof MarkedYAMLException yaml && yaml.getProblemMark() != null) {
      Mark mark = yaml.getProblemMark();
      String reason = yaml.getProblem() != null ? yaml.getProblem() : yaml.getContext();
      if (options.explain() && reason != null && reason.startsWith("expected <block end>")) {
        reason = "the indentation does not line up with the lines above (" + reason + ")";
      }
      return factory.problem(
          file, at, what + clean(reason), mark.getLine() + 1, mark.getColumn() + 1);
    }
    JsonLocation location = e.getLocation() != null ? e.getLocation() : JsonLocation.NA;
    return problem(location, what + clean(e.getOriginalMessage()));
  }

  private P problem(JsonLocation location, String message) {
    Position position = position(location);
    return factory.problem(file, at, message, position.line(), position.column());
  }

  private String clean(String reason) {
    String first =
        reason == null
            ? "unexpected input"
            : reason.strip().lines().findFirst().orElse("unexpected input");
    return options.explain() ? QUOTED.matcher(first).replaceAll("(not shown)") : first;
  }

  private static Position position(JsonLocation location) {
    return new Position(Math.max(1, location.getLineNr()), Math.max(1, location.getColumnNr()));
  }
}
