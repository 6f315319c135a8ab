package dev.firedrill.embedded.api;

import dev.firedrill.format.GoFloat;
import dev.firedrill.promql.eval.Value;
import dev.firedrill.promql.model.LabelSet;

/**
 * A query's {@code data}: {@code {"resultType":...,"result":...}} as Prometheus marshals each type.
 */
final class ValueJson {

  private ValueJson() {}

  static void write(Json json, Value value) {
    json.beginObject().name("resultType");
    if (value instanceof Value.Scalar s) {
      json.string("scalar")
          .name("result")
          .beginArray()
          .raw(GoFloat.jsonNumber(s.timestampMs() / 1000.0))
          .string(GoFloat.shortestF(s.value()))
          .endArray();
    } else if (value instanceof Value.Text t) {
      json.string("string")
          .name("result")
          .beginArray()
          .raw(GoFloat.jsonNumber(t.timestampMs() / 1000.0))
          .string(t.value())
          .endArray();
    } else if (value instanceof Value.Vector v) {
      json.string("vector").name("result").beginArray();
      for (Value.Sample sample : v.samples()) {
        json.beginObject().name("metric");
        labels(json, sample.labels());
        json.name("value");
        point(json, sample.timestampMs(), sample.value());
        json.endObject();
      }
      json.endArray();
    } else {
      json.string("matrix").name("result").beginArray();
      for (Value.Series series : ((Value.Matrix) value).series()) {
        json.beginObject().name("metric");
        labels(json, series.labels());
        json.name("values").beginArray();
        for (int i = 0; i < series.timestampsMs().length; i++) {
          point(json, series.timestampsMs()[i], series.values()[i]);
        }
        json.endArray().endObject();
      }
      json.endArray();
    }
    json.endObject();
  }

  /** Labels in name order, as Go marshals a map. */
  static void labels(Json json, LabelSet labels) {
    json.beginObject();
    for (int i = 0; i < labels.size(); i++) {
      json.name(labels.name(i)).string(labels.value(i));
    }
    json.endObject();
  }

  private static void point(Json json, long timestampMs, double value) {
    json.beginArray().raw(timestamp(timestampMs)).string(GoFloat.sampleValue(value)).endArray();
  }

  /**
   * Milliseconds as Prometheus's {@code jsonutil.MarshalTimestamp} writes them: seconds, and when
   * there is a fraction, all three of its digits ({@code 1.500}).
   */
  static String timestamp(long ms) {
    StringBuilder out = new StringBuilder(20);
    long t = ms;
    if (t < 0) {
      out.append('-');
      t = -t;
    }
    out.append(t / 1000);
    long fraction = t % 1000;
    if (fraction != 0) {
      out.append('.');
      if (fraction < 100) {
        out.append('0');
      }
      if (fraction < 10) {
        out.append('0');
      }
      out.append(fraction);
    }
    return out.toString();
  }
}
