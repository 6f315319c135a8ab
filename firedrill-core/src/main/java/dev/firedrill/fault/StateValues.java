package dev.firedrill.fault;

import java.util.List;
import java.util.Map;

/** Reads the plain JSON values a journal hands back, which may arrive as Integer or Long. */
final class StateValues {

  private StateValues() {}

  static long number(Object value, String where) throws FaultException {
    if (value instanceof Number number) {
      return number.longValue();
    }
    throw new FaultException("state " + where + ": expected a number, got " + describe(value));
  }

  static String text(Object value, String where) throws FaultException {
    if (value instanceof String text) {
      return text;
    }
    throw new FaultException("state " + where + ": expected a string, got " + describe(value));
  }

  static List<?> list(Object value, String where) throws FaultException {
    if (value instanceof List<?> list) {
      return list;
    }
    throw new FaultException("state " + where + ": expected a list, got " + describe(value));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object value, String where) throws FaultException {
    if (value instanceof Map<?, ?> map) {
      return (Map<String, Object>) map;
    }
    throw new FaultException("state " + where + ": expected an object, got " + describe(value));
  }

  private static String describe(Object value) {
    return value == null ? "nothing" : "\"" + value + "\"";
  }
}
