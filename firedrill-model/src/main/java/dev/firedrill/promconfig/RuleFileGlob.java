package dev.firedrill.promconfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;

/**
 * Go's {@code filepath.Glob}, which Prometheus expands {@code rule_files} with: {@code *}, {@code
 * ?}, {@code [a-z]} and {@code [^a-z]} within one path segment, {@code \} quoting; no {@code **}
 * and no braces (Java's glob syntax differs, hence this translation). A pattern matching nothing is
 * no error.
 */
public final class RuleFileGlob {

  private RuleFileGlob() {}

  /** Null when the pattern is valid, else why not (Go says "syntax error in pattern"). */
  static String problem(String pattern) {
    for (String segment : segments(Path.of(pattern))) {
      if (hasMeta(segment) && toRegex(segment) == null) {
        return "syntax error in pattern \""
            + segment
            + "\" (an unclosed or empty [ ], a reversed range, or a trailing \\)";
      }
    }
    return null;
  }

  /** The regular files the absolute pattern matches, sorted. */
  public static List<Path> expand(String pattern) throws IOException {
    Path path = Path.of(pattern);
    List<Path> current = List.of(path.getRoot() == null ? Path.of("") : path.getRoot());
    for (String segment : segments(path)) {
      List<Path> next = new ArrayList<>();
      Pattern regex = hasMeta(segment) ? toRegex(segment) : null;
      for (Path dir : current) {
        if (regex == null) {
          next.add(dir.resolve(segment));
        } else if (Files.isDirectory(dir)) {
          try (Stream<Path> entries = Files.list(dir)) {
            entries
                .filter(e -> regex.matcher(e.getFileName().toString()).matches())
                .forEach(next::add);
          }
        }
      }
      current = next;
    }
    return current.stream().filter(Files::isRegularFile).sorted().toList();
  }

  private static List<String> segments(Path path) {
    List<String> out = new ArrayList<>();
    path.forEach(p -> out.add(p.toString()));
    return out;
  }

  private static boolean hasMeta(String segment) {
    return segment.indexOf('*') >= 0
        || segment.indexOf('?') >= 0
        || segment.indexOf('[') >= 0
        || segment.indexOf('\\') >= 0;
  }

  /** The segment as a regular expression, or null when it is malformed. */
  private static Pattern toRegex(String segment) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < segment.length(); i++) {
      char c = segment.charAt(i);
      switch (c) {
        case '*' -> out.append(".*");
        case '?' -> out.append('.');
        case '\\' -> {
          if (++i == segment.length()) {
            return null;
          }
          out.append(Pattern.quote(String.valueOf(segment.charAt(i))));
        }
        case '[' -> {
          int end = segment.indexOf(']', i + 1);
          if (end < 0 || end == i + 1) {
            return null;
          }
          String body = segment.substring(i + 1, end);
          boolean negated = body.startsWith("^");
          out.append('[')
              .append(negated ? "^" : "")
              .append(
                  body.substring(negated ? 1 : 0)
                      .replace("\\", "\\\\")
                      .replace("[", "\\[")
                      .replace("&", "\\&"))
              .append(']');
          i = end;
        }
        default -> out.append(Pattern.quote(String.valueOf(c)));
      }
    }
    try {
      return Pattern.compile(out.toString(), Pattern.DOTALL);
    } catch (PatternSyntaxException e) {
      return null;
    }
  }
}
