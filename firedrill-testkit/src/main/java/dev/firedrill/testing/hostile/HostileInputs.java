package dev.firedrill.testing.hostile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Text a hostile user (or a broken exporter) would feed a parser, for {@link Properties}: real
 * fixtures mutated, random bytes, random unicode, deep nesting, huge numbers, YAML alias bombs,
 * duplicate keys and empty files. One generator for every parser of the project, so that each
 * parser's property only says what a clean outcome is.
 *
 * <p>Every input follows from the {@link java.util.Random} it is drawn from, so a failing input is
 * reproduced by its try's seed.
 */
public final class HostileInputs {

  /** How the format nests, for deep nesting: {@code [}/{@code ]} for JSON and YAML, say. */
  public record Nesting(String open, String leaf, String close) {}

  /** Tokens that broke parsers before, or are made to: splice them anywhere. */
  static final List<String> TOKENS =
      List.of(
          "\u0000",
          "\u001b[2J\u001b[31m",
          "\n",
          "\r\n",
          "\t",
          "'",
          "\"",
          "\\",
          "{",
          "}",
          "[",
          "]",
          "(",
          ")",
          ":",
          ": ",
          "- ",
          ",",
          "#",
          "|",
          ">",
          "&a ",
          "*a",
          "<<: *a\n",
          "!!binary ",
          "!!java.lang.Runtime ",
          "%YAML 1.2\n",
          "---\n",
          "...\n",
          "1e309",
          "-1e309",
          "NaN",
          "+Inf",
          "-Inf",
          "-0",
          "0x1p3",
          "1_000",
          "9223372036854775808",
          "-9223372036854775809",
          "106751991167301d",
          "9999999999999999h",
          "2635249153387078802w",
          "9".repeat(400),
          "0.".concat("0".repeat(300)).concat("1"),
          "\uFEFF",
          "\u202E",
          "\u200B",
          "\uD800",
          "\uDC00",
          "é",
          "\uD835\uDD4F",
          "${HOME}",
          "{{ .x }}",
          "=~",
          "!~",
          "offset",
          "@",
          "[5m]",
          "by (",
          "=",
          "{a=\"",
          "\"}");

  private static final Pattern NUMBER = Pattern.compile("\\d+(\\.\\d+)?");

  private HostileInputs() {}

  /** The text of each file named, and of each regular file directly in each directory named. */
  public static List<String> texts(Path... paths) {
    List<String> texts = new ArrayList<>();
    try {
      for (Path path : paths) {
        if (Files.isDirectory(path)) {
          try (Stream<Path> files = Files.list(path)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
              texts.add(Files.readString(file));
            }
          }
        } else {
          texts.add(Files.readString(path));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the fixtures: " + e.getMessage(), e);
    }
    return texts;
  }

  /**
   * Every kind of hostile text, about half of it mutated fixtures.
   *
   * @param fixtures real, valid inputs of the format (at least one)
   * @param nesting how the format nests
   * @param yaml whether the format is YAML (alias bombs and duplicate keys are YAML's)
   */
  public static Generator<String> of(List<String> fixtures, Nesting nesting, boolean yaml) {
    if (fixtures.isEmpty()) {
      throw new IllegalArgumentException("hostile inputs need at least one real fixture");
    }
    List<Generator.Weighted<String>> kinds = new ArrayList<>();
    kinds.add(Generator.weighted(50, mutated(fixtures)));
    kinds.add(Generator.weighted(8, randomBytes()));
    kinds.add(Generator.weighted(8, randomUnicode(200)));
    kinds.add(Generator.weighted(4, deepNesting(nesting)));
    kinds.add(Generator.weighted(8, hugeNumbers(fixtures)));
    kinds.add(
        Generator.weighted(
            4, Generator.oneOf("", " ", "\n", "\n\n\n", "\t", "\uFEFF", "#", "---", "{}")));
    if (yaml) {
      kinds.add(Generator.weighted(4, aliasBombs()));
      kinds.add(Generator.weighted(6, duplicateKeys(fixtures)));
    }
    return Generator.frequency(kinds);
  }

  /** A fixture with one to five mutations: spans cut or doubled, tokens spliced, lines moved. */
  public static Generator<String> mutated(List<String> fixtures) {
    return fromFixture(fixtures, HostileInputs::mutate);
  }

  /** Bytes of any value, read as UTF-8 the way a parser is handed a file. */
  public static Generator<String> randomBytes() {
    return random -> {
      byte[] bytes = new byte[random.nextInt(301)];
      random.nextBytes(bytes);
      return new String(bytes, StandardCharsets.UTF_8);
    };
  }

  /**
   * Up to {@code maxChars} chars of code points drawn from all of Unicode: a supplementary one as
   * its surrogate pair (never cut in half by the length), a surrogate code point as a lone
   * surrogate, the malformed text a Java parser can still be handed.
   */
  public static Generator<String> randomUnicode(int maxChars) {
    return random -> {
      int length = random.nextInt(maxChars + 1);
      StringBuilder out = new StringBuilder(length);
      while (out.length() < length) {
        int c = random.nextInt(Character.MAX_CODE_POINT + 1);
        if (out.length() + Character.charCount(c) > length) {
          c = random.nextInt(Character.MIN_SUPPLEMENTARY_CODE_POINT);
        }
        out.appendCodePoint(c);
      }
      return out.toString();
    };
  }

  /** Nesting from a few levels to far past any stack a recursive reader has. */
  public static Generator<String> deepNesting(Nesting nesting) {
    // The deepest are rare: a hundred thousand levels cost a parser a tenth of a second or more.
    Generator<Integer> depths =
        Generator.frequency(
            List.of(
                Generator.weighted(30, Generator.constant(2)),
                Generator.weighted(30, Generator.constant(50)),
                Generator.weighted(25, Generator.constant(1_000)),
                Generator.weighted(12, Generator.constant(10_000)),
                Generator.weighted(3, Generator.constant(100_000))));
    return depths.flatMap(
        depth ->
            Generator.oneOf(true, false)
                .map(
                    closed ->
                        nesting.open().repeat(depth)
                            + nesting.leaf()
                            + (closed ? nesting.close().repeat(depth) : "")));
  }

  /** A fixture with its numbers replaced by huge, tiny or out-of-range ones. */
  public static Generator<String> hugeNumbers(List<String> fixtures) {
    List<String> huge =
        List.of(
            "9".repeat(30),
            "9".repeat(400),
            "1e309",
            "1e-400",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775809",
            "18446744073709551616",
            "1" + "0".repeat(5000));
    return fromFixture(
        fixtures,
        (f, random) -> {
          Matcher m = NUMBER.matcher(f);
          StringBuilder out = new StringBuilder();
          while (m.find()) {
            m.appendReplacement(
                out,
                Matcher.quoteReplacement(
                    random.nextBoolean() ? huge.get(random.nextInt(huge.size())) : m.group()));
          }
          m.appendTail(out);
          return out.toString();
        });
  }

  /**
   * Billion laughs: each level an array of ten aliases of the level before, {@code levels} deep;
   * expanded, nine levels are a billion strings.
   */
  public static String aliasBomb(int levels) {
    StringBuilder yaml = new StringBuilder("a0: &a0 [\"lol\"]\n");
    for (int i = 1; i <= levels; i++) {
      yaml.append('a').append(i).append(": &a").append(i).append(" [");
      for (int j = 0; j < 10; j++) {
        yaml.append(j == 0 ? "" : ", ").append("*a").append(i - 1);
      }
      yaml.append("]\n");
    }
    return yaml.toString();
  }

  /** Alias bombs of 1 to 12 levels, alone, as a value, or as a merge key. */
  public static Generator<String> aliasBombs() {
    return Generator.between(1, 12)
        .flatMap(
            levels ->
                Generator.oneOf(
                    aliasBomb(levels),
                    "id: x\n" + aliasBomb(levels).replace("a0:", "title:"),
                    aliasBomb(levels) + "id: *a" + levels + "\n",
                    aliasBomb(levels) + "steady_state:\n  <<: *a" + levels + "\n"));
  }

  /** A fixture with one of its lines written twice in a row (a key given twice). */
  public static Generator<String> duplicateKeys(List<String> fixtures) {
    return fromFixture(
        fixtures,
        (f, random) -> {
          List<String> lines = new ArrayList<>(List.of(f.split("\n", -1)));
          int at = random.nextInt(lines.size());
          lines.add(at, lines.get(at));
          return String.join("\n", lines);
        });
  }

  /** One fixture, picked at random, changed by {@code change} with the same random. */
  private static Generator<String> fromFixture(
      List<String> fixtures, BiFunction<String, Random, String> change) {
    Generator<String> pick = Generator.oneOf(fixtures);
    return random -> change.apply(pick.next(random), random);
  }

  /** One to five mutations of {@code text}, chosen by {@code random}. */
  static String mutate(String text, Random random) {
    String out = text;
    int count = 1 + random.nextInt(5);
    for (int i = 0; i < count; i++) {
      out = mutateOnce(out, random);
    }
    return out;
  }

  private static String mutateOnce(String text, Random random) {
    int length = text.length();
    int at = length == 0 ? 0 : random.nextInt(length + 1);
    switch (random.nextInt(7)) {
      case 0: // cut a span
        {
          int end = Math.min(length, at + 1 + random.nextInt(20));
          return text.substring(0, at) + text.substring(end);
        }
      case 1: // double a span
        {
          int end = Math.min(length, at + 1 + random.nextInt(40));
          return text.substring(0, end) + text.substring(at, end) + text.substring(end);
        }
      case 2: // cut the rest
        return text.substring(0, at);
      case 3: // swap two lines
        {
          List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
          int a = random.nextInt(lines.size());
          int b = random.nextInt(lines.size());
          String line = lines.get(a);
          lines.set(a, lines.get(b));
          lines.set(b, line);
          return String.join("\n", lines);
        }
      case 4: // indent or outdent a line
        {
          int start = text.lastIndexOf('\n', Math.max(0, at - 1)) + 1;
          if (random.nextBoolean() || start >= length || text.charAt(start) != ' ') {
            return text.substring(0, start) + "  " + text.substring(start);
          }
          return text.substring(0, start) + text.substring(start + 1);
        }
      default: // splice a hostile token
        return text.substring(0, at)
            + TOKENS.get(random.nextInt(TOKENS.size()))
            + text.substring(at);
    }
  }
}
