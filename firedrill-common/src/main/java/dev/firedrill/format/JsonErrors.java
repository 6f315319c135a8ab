package dev.firedrill.format;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * JSON read as a tree with, on failure, where and why in one line. A limit exceeded (a number of
 * more than a thousand digits, nesting deeper than a thousand) comes without a location of its own:
 * the parser's position then says where.
 */
public final class JsonErrors {

  /** Why a text is not JSON, and where (line and column, 0 when nothing knows). */
  public static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean limit;
    private final int line;
    private final int column;

    Refused(JsonProcessingException e, JsonLocation location) {
      super(what(e), e);
      this.limit = e instanceof StreamConstraintsException;
      this.line = location == null ? 0 : Math.max(0, location.getLineNr());
      this.column = location == null ? 0 : Math.max(0, location.getColumnNr());
    }

    /** A reading limit was passed (the text may be JSON, but too big in some way). */
    public boolean limit() {
      return limit;
    }

    /** {@code (line L, column C)}, or empty when nothing knows where. */
    public String where() {
      return line < 1 ? "" : "(line " + line + ", column " + column + ")";
    }
  }

  private JsonErrors() {}

  /**
   * The tree of {@code parser}'s text (null when empty), closing the parser.
   *
   * @throws Refused when the text is not JSON or passes a limit
   * @throws IOException when it cannot be read
   */
  public static JsonNode readTree(ObjectMapper mapper, JsonParser parser)
      throws Refused, IOException {
    try (parser) {
      return mapper.readTree(parser);
    } catch (JsonProcessingException e) {
      JsonLocation location = e.getLocation() != null ? e.getLocation() : parser.currentLocation();
      throw new Refused(e, location);
    }
  }

  /**
   * What was wrong, in Jackson's words without its API names: {@code Number value length (1001)
   * exceeds the maximum allowed (1000)}.
   */
  private static String what(JsonProcessingException e) {
    String message = String.valueOf(e.getOriginalMessage());
    if (e instanceof StreamConstraintsException) {
      message = message.replaceAll(", from `[^`]*`", "");
    }
    return ControlChars.quote(message); // Jackson quotes the character it stopped at, raw
  }
}
