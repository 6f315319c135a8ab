package dev.firedrill.promql.ast;

import java.util.List;

/**
 * A PromQL function's signature, as Prometheus's {@code parser.Functions} table gives it. {@code
 * variadic} is 0 for a fixed argument list, n for up to n optional trailing arguments of the last
 * argument type, -1 for any number of them.
 */
public record Function(String name, List<ValueType> argTypes, int variadic, ValueType returnType) {
  public Function {
    argTypes = List.copyOf(argTypes);
  }
}
