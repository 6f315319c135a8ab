package dev.firedrill.alerting.lint;

import dev.firedrill.yaml.SourceTree;
import java.util.List;
import java.util.Objects;

/**
 * Input the linter cannot read: a file that is not YAML, a rule without {@code expr}, a duration that
 * is not one. {@code FILE: /field/path: what was expected (line L, column C)}; line 0 without a position.
 */
public record ReadProblem(String file, String pointer, String message, int line, int column) {

  /** Always YAML; later documents ignored; numbers and booleans kept as written (prometheus.yml; rule files: RuleDocuments). */
  private static final SourceTree.Options READING =
      new SourceTree.Options(false, false, SourceTree.Scalars.TEXT, false);

  public ReadProblem {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(pointer, "pointer");
    Objects.requireNonNull(message, "message");
  }

  @Override
  public String toString() {
    String where = file + ": " + (pointer.isEmpty() ? "/" : pointer) + ": " + message;
    return line > 0 ? where + " (line " + line + ", column " + column + ")" : where;
  }

  /** Reads a YAML file: duplicate keys and malformed text go to {@code problems}; null when it is malformed. */
  static SourceTree<ReadProblem> read(String file, String content, List<ReadProblem> problems) {
    SourceTree<ReadProblem> tree = SourceTree.read(file, content, READING, ReadProblem::new);
    problems.addAll(tree.problems());
    return tree.malformed() == null ? tree : null;
  }
}
