package dev.firedrill.embedded.api;

import dev.firedrill.format.GoQuote;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.promql.model.SeriesSource;
import dev.firedrill.promql.model.StoredSeries;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;

/** {@code /api/v1/series}, {@code /api/v1/labels} and {@code /api/v1/label/<name>/values}. */
final class SeriesApi {

  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  private final QueryEngine engine;
  private final SeriesSource source;

  SeriesApi(QueryEngine engine, SeriesSource source) {
    this.engine = engine;
    this.source = source;
  }

  void series(Form form, Json json) {
    List<String> matches = form.all("match[]");
    if (matches.isEmpty()) {
      throw ApiError.badData("no match[] parameter provided");
    }
    long start = Params.time(form, "start", Params.MIN_TIME_MS);
    long end = Params.time(form, "end", Params.MAX_TIME_MS);
    List<List<LabelMatcher>> sets;
    try {
      sets = matcherSets(matches);
    } catch (IllegalArgumentException e) {
      throw ApiError.invalidParameter("match[]", e.getMessage());
    }
    TreeSet<LabelSet> found = new TreeSet<>();
    for (List<LabelMatcher> set : sets) {
      for (StoredSeries series : source.select(set, start, end)) {
        found.add(series.labels());
      }
    }
    json.beginArray();
    found.forEach(labels -> ValueJson.labels(json, labels));
    json.endArray();
  }

  void labelNames(Form form, Json json) {
    long start = Params.time(form, "start", Params.MIN_TIME_MS);
    long end = Params.time(form, "end", Params.MAX_TIME_MS);
    List<List<LabelMatcher>> sets = matcherSetsOrBadData(form);
    TreeSet<String> names = new TreeSet<>();
    if (sets.isEmpty()) {
      names.addAll(source.labelNames(List.of(), start, end));
    }
    for (List<LabelMatcher> set : sets) {
      names.addAll(source.labelNames(set, start, end));
    }
    stringArray(json, names);
  }

  void labelValues(String name, Form form, Json json) {
    if (!LABEL_NAME.matcher(name).matches()) {
      throw ApiError.badData("invalid label name: " + GoQuote.of(name));
    }
    long start = Params.time(form, "start", Params.MIN_TIME_MS);
    long end = Params.time(form, "end", Params.MAX_TIME_MS);
    List<List<LabelMatcher>> sets = matcherSetsOrBadData(form);
    if (sets.isEmpty()) {
      sets = List.of(List.of(LabelMatcher.of(LabelMatcher.Type.REGEX, name, ".+")));
    }
    TreeSet<String> values = new TreeSet<>();
    for (List<LabelMatcher> set : sets) {
      for (StoredSeries series : source.select(set, start, end)) {
        if (series.labels().has(name)) {
          values.add(series.labels().get(name));
        }
      }
    }
    stringArray(json, values);
  }

  /**
   * Prometheus reports a bad {@code match[]} of the label endpoints without naming the parameter.
   */
  List<List<LabelMatcher>> matcherSetsOrBadData(Form form) {
    try {
      return matcherSets(form.all("match[]"));
    } catch (IllegalArgumentException e) {
      throw ApiError.badData(e.getMessage());
    }
  }

  /**
   * Each {@code match[]} is a series selector ({@code up{job="api"}}) with a matcher that does not
   * match "".
   */
  private List<List<LabelMatcher>> matcherSets(List<String> matches) {
    List<List<LabelMatcher>> sets = new ArrayList<>();
    for (String match : matches) {
      Expr expr;
      try {
        expr = engine.parse(match);
      } catch (PromqlException e) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
      if (!(expr instanceof Expr.VectorSelector selector)
          || selector.offsetMs() != 0
          || selector.at() != null) {
        throw new IllegalArgumentException(
            GoQuote.of(match) + " is not a series selector (expected one such as up{job=\"api\"})");
      }
      if (selector.matchers().stream().allMatch(LabelMatcher::matchesEmpty)) {
        throw new IllegalArgumentException("match[] must contain at least one non-empty matcher");
      }
      sets.add(selector.matchers());
    }
    return sets;
  }

  private static void stringArray(Json json, Iterable<String> strings) {
    json.beginArray();
    strings.forEach(json::string);
    json.endArray();
  }
}
