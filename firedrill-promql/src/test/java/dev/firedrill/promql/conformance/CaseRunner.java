package dev.firedrill.promql.conformance;

import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.eval.Annotations;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.eval.Engine;
import dev.firedrill.promql.eval.Feature;
import dev.firedrill.promql.eval.Value;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Runs one eval command as Prometheus's promql/test.go does: the query at its time, again with
 * {@code @} pinned at other times, each also as a range query around the time whose middle step
 * must agree; values compared with its relative epsilon.
 */
final class CaseRunner {

  private static final double EPSILON = 0.000001;
  private static final double MIN_NORMAL = Double.MIN_NORMAL;

  private static final Pattern QUERY_CONTEXT = Pattern.compile("(start|end|range|step)\\(\\)");

  private final Engine engine;
  private final MemorySeriesSource source;

  CaseRunner(MemorySeriesSource source, Compat compat) {
    this.source = source;
    this.engine =
        new Engine(
            source,
            new Engine.Options(
                    Duration.ofMinutes(5), Duration.ofSeconds(100), Duration.ofMinutes(1), compat)
                // As test.go's engine: promql-delayed-name-removal and use-start-timestamps.
                .withFeatures(EnumSet.allOf(Feature.class)));
  }

  /** Null when the case passes, else what went wrong. */
  String run(Script.Eval c) {
    if (c.problem() != null) {
      return c.problem();
    }
    Expr expr;
    try {
      expr = engine.parse(c.query());
    } catch (PromqlException e) {
      return c.fail() && c.failMessage() == null && c.failRegex() == null
          ? null
          : "parse error: " + e.getMessage();
    } catch (RuntimeException e) {
      return "parser crashed: " + e;
    }
    if (c.range()) {
      return runRange(c, expr);
    }
    String failure = runInstant(c, expr, c.endMs(), true);
    source.watch(false);
    if (failure != null || c.string() != null || c.rangeVector()) {
      return failure;
    }
    Expr pinned = AtModifier.pin(expr, c.endMs());
    if (pinned == null) {
      return null;
    }
    for (long t : AtModifier.times(c.endMs())) {
      failure = runInstant(c, pinned, t, false);
      if (failure != null) {
        return "with @ " + c.endMs() + " at " + t + ": " + failure;
      }
    }
    return null;
  }

  private String runInstant(Script.Eval c, Expr expr, long t, boolean original) {
    Value result;
    Annotations annotations = new Annotations();
    try {
      result = engine.instant(expr, t, annotations);
    } catch (PromqlException e) {
      return c.fail() ? failureMessageCheck(c, e) : "error: " + e.getMessage();
    } catch (RuntimeException e) {
      return "crashed: " + e;
    }
    if (c.fail()) {
      return "expected an error, got " + result;
    }
    String unexpected = original ? annotationFailure(c, annotations) : null;
    if (unexpected != null) {
      return unexpected;
    }
    if (c.string() != null) {
      return result instanceof Value.Text text && text.value().equals(c.string())
          ? null
          : "expected string " + c.string() + ", got " + result;
    }
    if (c.rangeVector()) {
      return result instanceof Value.Matrix m
          ? compareMatrix(c, m)
          : "expected a range vector, got " + result;
    }
    String failure = compareInstant(c, result);
    // As test.go: start(), end(), range() and step() answer differently in a range query.
    if (failure != null || c.ordered() || QUERY_CONTEXT.matcher(c.query()).find()) {
      return failure;
    }
    Value.Matrix range;
    source.watch(false);
    try {
      range = engine.range(expr, t - 60_000, t + 60_000, 60_000);
    } catch (PromqlException e) {
      return "range mode error: " + e.getMessage();
    } catch (RuntimeException e) {
      return "range mode crashed: " + e;
    }
    List<Value.Sample> middle = new ArrayList<>();
    for (Value.Series s : range.series()) {
      for (int i = 0; i < s.timestampsMs().length; i++) {
        if (s.timestampsMs()[i] == t) {
          middle.add(new Value.Sample(s.labels(), t, s.values()[i]));
          break;
        }
      }
    }
    Value asInstant =
        result instanceof Value.Scalar
            ? new Value.Scalar(t, middle.isEmpty() ? Double.NaN : middle.get(0).value())
            : new Value.Vector(middle);
    failure = compareInstant(c, asInstant);
    return failure == null ? null : "range mode: " + failure;
  }

  private static String failureMessageCheck(Script.Eval c, PromqlException e) {
    if (c.failMessage() != null && !c.failMessage().equals(e.getMessage())) {
      return "expected error \"" + c.failMessage() + "\", got \"" + e.getMessage() + "\"";
    }
    if (c.failRegex() != null && !c.failRegex().matcher(e.getMessage()).find()) {
      return "expected error matching " + c.failRegex() + ", got \"" + e.getMessage() + "\"";
    }
    return null;
  }

  private static String compareInstant(Script.Eval c, Value result) {
    if (result instanceof Value.Scalar s) {
      if (c.scalar() == null) {
        return "got scalar " + s.value() + ", expected a vector";
      }
      return almostEqual(c.scalar(), s.value())
          ? null
          : "expected scalar " + c.scalar() + ", got " + s.value();
    }
    if (!(result instanceof Value.Vector vector)) {
      return "received " + result.getClass().getSimpleName() + " result on instant evaluation";
    }
    if (c.scalar() != null) {
      return "expected scalar " + c.scalar() + ", got vector " + vector.samples();
    }
    Map<LabelSet, Script.Expected> expected = new HashMap<>();
    for (Script.Expected e : c.series()) {
      expected.put(e.labels(), e);
    }
    Set<LabelSet> seen = new HashSet<>();
    List<Value.Sample> samples = vector.samples();
    for (int pos = 0; pos < samples.size(); pos++) {
      Value.Sample s = samples.get(pos);
      Script.Expected e = expected.get(s.labels());
      if (e == null) {
        return "unexpected metric " + s.labels() + " in result " + samples;
      }
      if (c.ordered() && e.position() != pos + 1) {
        return "expected "
            + s.labels()
            + " at position "
            + e.position()
            + " but was at "
            + (pos + 1);
      }
      Double want = e.values().isEmpty() ? null : e.values().get(0);
      if (want == null || !almostEqual(want, s.value())) {
        return "expected " + want + " for " + s.labels() + " but got " + s.value();
      }
      seen.add(s.labels());
    }
    for (Script.Expected e : c.series()) {
      if (!seen.contains(e.labels())) {
        return "expected metric " + e.labels() + " with " + e.values() + " not found in " + samples;
      }
    }
    return null;
  }

  private String runRange(Script.Eval c, Expr expr) {
    Value.Matrix result;
    Annotations annotations = new Annotations();
    try {
      result = engine.range(expr, c.startMs(), c.endMs(), c.stepMs(), annotations);
    } catch (PromqlException e) {
      return c.fail() ? failureMessageCheck(c, e) : "error: " + e.getMessage();
    } catch (RuntimeException e) {
      return "crashed: " + e;
    }
    if (c.fail()) {
      return "expected an error, got " + result;
    }
    String unexpected = annotationFailure(c, annotations);
    return unexpected != null ? unexpected : compareMatrix(c, result);
  }

  /** Null when the query's warnings and infos are what the eval's expect lines ask. */
  private static String annotationFailure(Script.Eval c, Annotations annotations) {
    Script.AnnotationExpectations e = c.annotations();
    String warn = check("warning", e.warn(), e.warnMsg(), e.warnRegex(), annotations.warnings());
    return warn != null
        ? warn
        : check("info", e.info(), e.infoMsg(), e.infoRegex(), annotations.infos());
  }

  private static String check(
      String kind, Boolean expected, String msg, Pattern regex, List<String> got) {
    if (expected == null) {
      return null;
    }
    if (!expected) {
      return got.isEmpty() ? null : "expected no " + kind + " annotation, got " + got;
    }
    if (got.isEmpty()) {
      return "expected a " + kind + " annotation, got none";
    }
    if (msg != null && !got.contains(msg)) {
      return "expected the " + kind + " \"" + msg + "\", got " + got;
    }
    if (regex != null && got.stream().noneMatch(a -> regex.matcher(a).find())) {
      return "expected a " + kind + " matching " + regex + ", got " + got;
    }
    return null;
  }

  /** Each expected series' values sit at start, start+step, ...; an omitted value is no point. */
  private static String compareMatrix(Script.Eval c, Value.Matrix result) {
    Map<LabelSet, Script.Expected> expected = new HashMap<>();
    for (Script.Expected e : c.series()) {
      expected.put(e.labels(), e);
    }
    for (Value.Series s : result.series()) {
      Script.Expected e = expected.remove(s.labels());
      if (e == null) {
        return "unexpected series " + s.labels();
      }
      List<Long> times = new ArrayList<>();
      List<Double> values = new ArrayList<>();
      for (int i = 0; i < e.values().size(); i++) {
        if (e.values().get(i) != null) {
          times.add(c.startMs() + i * c.stepMs());
          values.add(e.values().get(i));
        }
      }
      if (times.size() != s.timestampsMs().length) {
        return "expected "
            + times.size()
            + " points for "
            + s.labels()
            + ", got "
            + s.timestampsMs().length;
      }
      for (int i = 0; i < times.size(); i++) {
        if (times.get(i) != s.timestampsMs()[i] || !almostEqual(values.get(i), s.values()[i])) {
          return "expected "
              + values.get(i)
              + " @ "
              + times.get(i)
              + " for "
              + s.labels()
              + ", got "
              + s.values()[i]
              + " @ "
              + s.timestampsMs()[i];
        }
      }
    }
    return expected.isEmpty() ? null : "expected series not found: " + expected.keySet();
  }

  /** promql/test.go's almostEqual: NaN equals NaN, else a relative error under 1e-6. */
  static boolean almostEqual(double a, double b) {
    if (Double.isNaN(a) && Double.isNaN(b)) {
      return true;
    }
    if (a == b) {
      return true;
    }
    double diff = Math.abs(a - b);
    if (a == 0 || b == 0 || diff < MIN_NORMAL) {
      return diff < EPSILON * MIN_NORMAL;
    }
    return diff / (Math.abs(a) + Math.abs(b)) < EPSILON;
  }
}
