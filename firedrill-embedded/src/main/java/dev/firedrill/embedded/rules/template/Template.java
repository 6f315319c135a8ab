package dev.firedrill.embedded.rules.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A parsed Go text/template (the subset described in {@link Parser}), executed with {@code
 * missingkey=zero} as Prometheus executes it: a missing label is the empty string.
 */
public final class Template {

  private final String name;
  private final String text;
  private final List<Node> nodes;

  private Template(String name, String text, List<Node> nodes) {
    this.name = name;
    this.text = text;
    this.nodes = nodes;
  }

  /**
   * @throws TemplateException {@code template: NAME:LINE: MESSAGE}
   */
  public static Template parse(String name, String text) {
    return new Template(name, text, List.copyOf(Parser.parse(name, text, Funcs.ALL.keySet())));
  }

  public String name() {
    return name;
  }

  /**
   * @throws TemplateException {@code template: NAME:LINE:COL: executing "NAME" at <NODE>: MESSAGE}
   */
  String execute(GoValues.Struct dot) {
    StringBuilder out = new StringBuilder();
    new Run(dot, out).list(nodes);
    return out.toString();
  }

  private final class Run {
    private final StringBuilder out;
    private final List<String> names = new ArrayList<>();
    private final List<Object> values = new ArrayList<>();
    private final Object dot;

    Run(Object dot, StringBuilder out) {
      this.dot = dot;
      this.out = out;
      names.add("$");
      values.add(dot);
    }

    void list(List<Node> list) {
      for (Node node : list) {
        if (node instanceof Node.Text t) {
          out.append(t.text());
        } else if (node instanceof Node.Action a) {
          Object value = pipeline(a.pipeline());
          if (a.pipeline().variable() == null) {
            out.append(GoValues.print(value));
          }
        } else if (node instanceof Node.If i) {
          int mark = names.size();
          boolean truth = GoValues.isTrue(pipeline(i.condition()));
          list(truth ? i.then() : i.otherwise());
          names.subList(mark, names.size()).clear();
          values.subList(mark, values.size()).clear();
        }
      }
    }

    private Object pipeline(Node.Pipeline pipe) {
      Object value = null;
      boolean piped = false;
      for (Node.Command command : pipe.commands()) {
        value = command(command, value, piped);
        piped = true;
      }
      if (pipe.variable() != null) {
        if (pipe.assign()) {
          values.set(names.lastIndexOf(pipe.variable()), value);
        } else {
          names.add(pipe.variable());
          values.add(value);
        }
      }
      return value;
    }

    private Object command(Node.Command command, Object finalValue, boolean hasFinal) {
      Node.Arg first = command.args().get(0);
      if (first instanceof Node.Arg.Function function) {
        return call(
            command,
            function,
            command.args().subList(1, command.args().size()),
            finalValue,
            hasFinal);
      }
      if (command.args().size() > 1 || hasFinal) {
        throw error(first.pos(), first.toString(), "can't give argument to non-function " + first);
      }
      return arg(first);
    }

    private Object call(
        Node.Command command,
        Node.Arg.Function function,
        List<Node.Arg> argNodes,
        Object finalValue,
        boolean hasFinal) {
      Funcs.Func func = Funcs.ALL.get(function.name());
      int given = argNodes.size() + (hasFinal ? 1 : 0);
      int fixed = func.params().size();
      if (func.variadic() ? given < fixed : given != fixed) {
        throw error(
            function.pos(),
            function.name(),
            "wrong number of args for "
                + function.name()
                + ": want "
                + (func.variadic() ? "at least " : "")
                + fixed
                + " got "
                + given);
      }
      if (Funcs.LAZY.contains(function.name())) {
        return andOr(function.name(), argNodes, finalValue, hasFinal);
      }
      List<Object> args = new ArrayList<>();
      for (int i = 0; i < given; i++) {
        boolean last = i == argNodes.size();
        Object value = last ? finalValue : arg(argNodes.get(i));
        if (i < fixed && func.params().get(i) == Funcs.Param.STRING && !(value instanceof String)) {
          Node.Arg at = last ? function : argNodes.get(i);
          throw error(
              at.pos(),
              at.toString(),
              "wrong type for value; expected string; got " + GoValues.typeName(value));
        }
        args.add(value);
      }
      try {
        return func.body().call(args);
      } catch (Funcs.CallError e) {
        throw error(
            command.pos(),
            command.toString(),
            "error calling " + function.name() + ": " + e.getMessage());
      }
    }

    /** Go's and/or: the first argument that decides, evaluated left to right and no further. */
    private Object andOr(String op, List<Node.Arg> argNodes, Object finalValue, boolean hasFinal) {
      Object value = null;
      int count = argNodes.size() + (hasFinal ? 1 : 0);
      for (int i = 0; i < count; i++) {
        value = i < argNodes.size() ? arg(argNodes.get(i)) : finalValue;
        if (GoValues.isTrue(value) == op.equals("or")) {
          return value;
        }
      }
      return value;
    }

    private Object arg(Node.Arg arg) {
      if (arg instanceof Node.Arg.Constant c) {
        return c.value();
      } else if (arg instanceof Node.Arg.Field f) {
        return fields(dot, f.fields(), f);
      } else if (arg instanceof Node.Arg.Variable v) {
        return fields(values.get(names.lastIndexOf(v.name())), v.fields(), v);
      } else if (arg instanceof Node.Arg.Sub s) {
        return fields(pipeline(s.pipeline()), s.fields(), s);
      }
      Node.Arg.Function f = (Node.Arg.Function) arg;
      return call(new Node.Command(f.pos(), List.of(f)), f, List.of(), null, false);
    }

    private Object fields(Object receiver, List<String> fields, Node.Arg at) {
      Object value = receiver;
      for (String field : fields) {
        if (value instanceof GoValues.Struct s && s.fields().containsKey(field)) {
          value = s.fields().get(field);
        } else if (value instanceof Map<?, ?> m) {
          Object found = m.get(field);
          value = found == null ? "" : found;
        } else if (value == null) {
          throw error(at.pos(), at.toString(), "nil pointer evaluating interface {}." + field);
        } else {
          throw error(
              at.pos(),
              at.toString(),
              "can't evaluate field " + field + " in type " + GoValues.typeName(value));
        }
      }
      return value;
    }

    private TemplateException error(int pos, String context, String message) {
      String before = text.substring(0, pos);
      int lastNewline = before.lastIndexOf('\n');
      int line = 1 + (int) before.chars().filter(c -> c == '\n').count();
      int column = lastNewline < 0 ? pos : pos - lastNewline - 1;
      return new TemplateException(
          "template: "
              + name
              + ":"
              + line
              + ":"
              + column
              + ": executing \""
              + name
              + "\" at <"
              + context
              + ">: "
              + message);
    }
  }
}
