package dev.firedrill.embedded.rules.template;

import java.util.List;

/**
 * The parse tree of a template, Go's {@code text/template/parse} nodes for the supported subset.
 */
sealed interface Node {

  /** Byte offset in the template text, for error positions as Go reports them. */
  int pos();

  record Text(int pos, String text) implements Node {}

  /**
   * {@code {{ pipeline }}}: prints the value unless the pipeline declares or assigns a variable.
   */
  record Action(int pos, Pipeline pipeline) implements Node {}

  /**
   * {@code {{if}} ... {{else}} ... {{end}}}; an {@code else if} is an If alone in {@code
   * otherwise}.
   */
  record If(int pos, Pipeline condition, List<Node> then, List<Node> otherwise) implements Node {}

  /** {@code $x := cmd | cmd}; {@code assign} is {@code =} rather than {@code :=}. */
  record Pipeline(int pos, String variable, boolean assign, List<Command> commands) {
    public String toString() {
      StringBuilder out = new StringBuilder();
      if (variable != null) {
        out.append(variable).append(assign ? " = " : " := ");
      }
      for (int i = 0; i < commands.size(); i++) {
        out.append(i > 0 ? " | " : "").append(commands.get(i));
      }
      return out.toString();
    }
  }

  record Command(int pos, List<Arg> args) {
    public String toString() {
      StringBuilder out = new StringBuilder();
      for (int i = 0; i < args.size(); i++) {
        String arg =
            args.get(i) instanceof Arg.Sub sub
                ? "(" + sub.pipeline() + ")"
                : args.get(i).toString();
        out.append(i > 0 ? " " : "").append(arg);
      }
      return out.toString();
    }
  }

  /** An operand of a command. */
  sealed interface Arg {
    int pos();

    record Function(int pos, String name) implements Arg {
      public String toString() {
        return name;
      }
    }

    /** {@code .} followed by fields: {@code .Labels.job}; no fields is the dot itself. */
    record Field(int pos, List<String> fields) implements Arg {
      public String toString() {
        return fields.isEmpty() ? "." : "." + String.join(".", fields);
      }
    }

    record Variable(int pos, String name, List<String> fields) implements Arg {
      public String toString() {
        return fields.isEmpty() ? name : name + "." + String.join(".", fields);
      }
    }

    /** {@code (pipeline).field...}. */
    record Sub(int pos, Pipeline pipeline, List<String> fields) implements Arg {
      public String toString() {
        return "(" + pipeline + ")" + (fields.isEmpty() ? "" : "." + String.join(".", fields));
      }
    }

    /** A string, number, boolean or nil constant; {@code text} is as written. */
    record Constant(int pos, Object value, String text) implements Arg {
      public String toString() {
        return text;
      }
    }
  }
}
