package dev.firedrill.embedded.rules.template;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An alerting rule's label and annotation templates as Prometheus expands them: the text is
 * prefixed with the definitions of {@code $labels}, {@code $externalLabels}, {@code $externalURL}
 * and {@code $value}, named {@code __alert_<alertname>}, and a failure expands to {@code <error
 * expanding template: ...>} instead of failing the rule. Error columns therefore count the prefix,
 * as Prometheus's do.
 */
public final class AlertTemplates {

  static final String DEFINITIONS =
      "{{$labels := .Labels}}{{$externalLabels := .ExternalLabels}}"
          + "{{$externalURL := .ExternalURL}}{{$value := .Value}}";
  private static final String DATA_TYPE =
      "struct { Labels map[string]string; ExternalLabels map[string]string;"
          + " ExternalURL string; Value interface {} }";

  private AlertTemplates() {}

  /** What an alert's templates see. */
  public record Data(
      Map<String, String> labels,
      Map<String, String> externalLabels,
      String externalUrl,
      double value) {}

  /**
   * @throws TemplateException as Prometheus's rule loader reports it: {@code template: __alert_X:1:
   *     ...}
   */
  public static Template compile(String alertName, String text) {
    return Template.parse("__alert_" + alertName, DEFINITIONS + text);
  }

  public static String expand(Template template, Data data) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("Labels", data.labels());
    fields.put("ExternalLabels", data.externalLabels());
    fields.put("ExternalURL", data.externalUrl());
    fields.put("Value", data.value());
    try {
      return template.execute(new GoValues.Struct(DATA_TYPE, fields));
    } catch (TemplateException e) {
      return "<error expanding template: error executing template "
          + template.name()
          + ": "
          + e.getMessage()
          + ">";
    }
  }
}
