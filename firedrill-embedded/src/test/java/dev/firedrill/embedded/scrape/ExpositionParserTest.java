package dev.firedrill.embedded.scrape;

import static dev.firedrill.embedded.scrape.ExpositionFormat.OPENMETRICS;
import static dev.firedrill.embedded.scrape.ExpositionFormat.PROMETHEUS_TEXT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.model.LabelSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExpositionParserTest {

  private static final long NONE = ExposedSample.NO_TIMESTAMP;

  private static List<ExposedSample> text(String body) throws ExpositionException {
    return ExpositionParser.parse("127.0.0.1:9100", body, PROMETHEUS_TEXT);
  }

  private static List<ExposedSample> om(String body) throws ExpositionException {
    return ExpositionParser.parse("127.0.0.1:9100", body, OPENMETRICS);
  }

  @Test
  void textFormatWithMetadataCommentsWhitespaceAndTimestamps() throws Exception {
    List<ExposedSample> samples =
        text(
            """
        # HELP http_requests_total The total. With "quotes" and \\\\ backslash.
        # TYPE http_requests_total counter
        #a comment without a space
        # some other comment
        http_requests_total{method="post",code="200"} 1027 1395066363000

          http_requests_total { method = "post" , code = "400" , }\t3   1395066363000\t
        metric_without_labels 12.47
        msdos_file_access_time_seconds{path="C:\\\\DIR\\\\FILE.TXT",error="Cannot find file:\\n\\"FILE.TXT\\""} 1.458255915e9
        odd_escape{a="\\\\t stays \\t"} -0
        empty{a=""} 1
        tight{a="b"}2
        """);
    assertThat(samples)
        .containsExactly(
            new ExposedSample(
                LabelSet.of("__name__", "http_requests_total", "method", "post", "code", "200"),
                1027,
                1395066363000L),
            new ExposedSample(
                LabelSet.of("__name__", "http_requests_total", "method", "post", "code", "400"),
                3,
                1395066363000L),
            new ExposedSample(LabelSet.of("__name__", "metric_without_labels"), 12.47, NONE),
            new ExposedSample(
                LabelSet.of(
                    "__name__",
                    "msdos_file_access_time_seconds",
                    "path",
                    "C:\\DIR\\FILE.TXT",
                    "error",
                    "Cannot find file:\n\"FILE.TXT\""),
                1.458255915e9,
                NONE),
            new ExposedSample(
                LabelSet.of("__name__", "odd_escape", "a", "\\t stays \\t"), -0.0, NONE),
            new ExposedSample(LabelSet.of("__name__", "empty"), 1, NONE),
            new ExposedSample(LabelSet.of("__name__", "tight", "a", "b"), 2, NONE));
  }

  @Test
  void specialValuesInAnyCaseAsGoParsesThem() throws Exception {
    List<ExposedSample> samples = text("a NaN\nb +Inf\nc -Inf\nd inf\ne nan\nf 1e3\ng .5\nh 5.\n");
    assertThat(samples)
        .extracting(ExposedSample::value)
        .containsExactly(
            Double.NaN,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY,
            Double.POSITIVE_INFINITY,
            Double.NaN,
            1000.0,
            0.5,
            5.0);
  }

  @Test
  void openMetricsWithUnitsExemplarsAndSecondTimestamps() throws Exception {
    List<ExposedSample> samples =
        om(
            """
        # TYPE acme_http_router_request_seconds summary
        # UNIT acme_http_router_request_seconds seconds
        # HELP acme_http_router_request_seconds Latency though all of ACME's HTTP request router.
        acme_http_router_request_seconds_sum{path="/api/v1",method="GET"} 9036.32
        acme_http_router_request_seconds_count{path="/api/v1",method="GET"} 807283.0 1520879607.789
        acme_http_router_request_seconds_created{path="/api/v1",method="GET"} 1605281325.0
        # TYPE foo counter
        # HELP foo
        foo_total 17.0 1520879607.789 # {trace_id="KOO5S4vxi0o"} 0.67
        foo_total{a="b\\"c"} 18.0 # {trace_id="oHg5SJYRHA0"} 9.8 1520879607.789
        foo_bucket{le="+Inf"} +Inf
        # EOF
        """);
    assertThat(samples)
        .containsExactly(
            new ExposedSample(
                LabelSet.of(
                    "__name__",
                    "acme_http_router_request_seconds_sum",
                    "path",
                    "/api/v1",
                    "method",
                    "GET"),
                9036.32,
                NONE),
            new ExposedSample(
                LabelSet.of(
                    "__name__",
                    "acme_http_router_request_seconds_count",
                    "path",
                    "/api/v1",
                    "method",
                    "GET"),
                807283.0,
                1520879607789L),
            new ExposedSample(
                LabelSet.of(
                    "__name__",
                    "acme_http_router_request_seconds_created",
                    "path",
                    "/api/v1",
                    "method",
                    "GET"),
                1605281325.0,
                NONE),
            new ExposedSample(LabelSet.of("__name__", "foo_total"), 17, 1520879607789L),
            new ExposedSample(LabelSet.of("__name__", "foo_total", "a", "b\"c"), 18, NONE),
            new ExposedSample(
                LabelSet.of("__name__", "foo_bucket", "le", "+Inf"),
                Double.POSITIVE_INFINITY,
                NONE));
  }

  @Test
  void openMetricsMayEndWithoutTheLastNewline() throws Exception {
    assertThat(om("a 1\n# EOF"))
        .containsExactly(new ExposedSample(LabelSet.of("__name__", "a"), 1, NONE));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      textBlock =
          """
      'm{a="b"} abc'                | 127.0.0.1:9100: line 1: expected a value (a float, NaN, +Inf or -Inf), found "abc"
      'm 0x1p3'                     | 127.0.0.1:9100: line 1: expected a value (a float, NaN, +Inf or -Inf), found "0x1p3"
      'm 1e999'                     | 127.0.0.1:9100: line 1: expected a value (a float, NaN, +Inf or -Inf), found "1e999"
      'm'                           | 127.0.0.1:9100: line 1: expected whitespace and the value, found the end of the line
      'm 1 1.5'                     | 127.0.0.1:9100: line 1: expected a timestamp in integer milliseconds or the end of the line, found "1.5"
      'm 1 -5'                      | 127.0.0.1:9100: line 1: expected a timestamp in integer milliseconds or the end of the line, found "-5"
      'm 1 5 x'                     | 127.0.0.1:9100: line 1: expected the end of the line after the timestamp, found "x"
      'm{a="b" c="d"} 1'            | 127.0.0.1:9100: line 1: expected , or } after the value of the label "a", found "c=\\"d\\"} 1"
      'm{a="b} 1'                   | 127.0.0.1:9100: line 1: expected a closing quote for the value of the label "a", found the end of the line
      'm{a=b} 1'                    | 127.0.0.1:9100: line 1: expected a quoted value for the label "a", found "b} 1"
      'm{a} 1'                      | 127.0.0.1:9100: line 1: expected = after the label name "a", found "} 1"
      'm{1a="b"} 1'                 | 127.0.0.1:9100: line 1: expected a label name or }, found "1a=\\"b\\"} 1"
      'm{a="1",a="2"} 1'            | 127.0.0.1:9100: line 1: expected each label name once, found "a" twice
      '{a="b"} 1'                   | 127.0.0.1:9100: line 1: expected a metric name, found "{a=\\"b\\"} 1"
      '# TYPE m countr'             | 127.0.0.1:9100: line 1: expected a metric type (counter, gauge, histogram, summary, untyped), found "countr"
      '# HELP  {x} help'            | 127.0.0.1:9100: line 1: expected a metric name after # HELP, found "{x} help"
      """)
  void textFormatErrorsNameTargetLineAndExpectation(String line, String message) {
    assertThatThrownBy(() -> text(line + "\n"))
        .isInstanceOf(ExpositionException.class)
        .hasMessage(message);
  }

  @Test
  void errorsNameTheirLine() {
    assertThatThrownBy(() -> text("a 1\n\n# HELP a x\nb{ 2\n"))
        .hasMessage("127.0.0.1:9100: line 4: expected a label name or }, found \"2\"");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      textBlock =
          """
      'a 1\\n'                       | 127.0.0.1:9100: line 2: expected # EOF as the last line of an OpenMetrics exposition, found the end of the text
      'a 1'                          | 127.0.0.1:9100: line 1: expected # EOF as the last line of an OpenMetrics exposition, found the end of the text
      'a 1\\n# EOF\\nb 2\\n'           | 127.0.0.1:9100: line 3: expected nothing after # EOF, found "b 2"
      '# a comment\\n# EOF\\n'         | 127.0.0.1:9100: line 1: expected # HELP, # TYPE, # UNIT or # EOF (OpenMetrics has no other comments), found "# a comment"
      'a 1\\n\\n# EOF\\n'              | 127.0.0.1:9100: line 2: expected a sample, # HELP, # TYPE, # UNIT or # EOF, found an empty line
      'a  1\\n# EOF\\n'                | 127.0.0.1:9100: line 1: expected a value, found " 1"
      'a{b="c", d="e"} 1\\n# EOF\\n'   | 127.0.0.1:9100: line 1: expected a label name or }, found " d=\\"e\\"} 1"
      'a{b="c"}1\\n# EOF\\n'          | 127.0.0.1:9100: line 1: expected a space and the value, found "1"
      'a 1 NaN\\n# EOF\\n'             | 127.0.0.1:9100: line 1: expected a timestamp in seconds, an exemplar (# {...} value) or the end of the line, found "NaN"
      'a 1 2 3\\n# EOF\\n'             | 127.0.0.1:9100: line 1: expected an exemplar (# {...} value) or the end of the line after the timestamp, found " 3"
      '# TYPE a untyped\\n# EOF\\n'    | 127.0.0.1:9100: line 1: expected a metric type (counter, gauge, histogram, gaugehistogram, stateset, info, summary, unknown), found "untyped"
      '# UNIT a_bytes seconds\\n# EOF\\n' | 127.0.0.1:9100: line 1: expected a unit that the metric name ends with ("_seconds"), found "a_bytes"
      """)
  void openMetricsErrors(String body, String message) {
    assertThatThrownBy(() -> om(body.replace("\\n", "\n")))
        .isInstanceOf(ExpositionException.class)
        .hasMessage(message);
  }

  @Test
  void theContentTypeChoosesTheFormatAsPrometheusDoes() {
    assertThat(ExpositionFormat.of("application/openmetrics-text; version=1.0.0; charset=utf-8"))
        .isEqualTo(OPENMETRICS);
    assertThat(ExpositionFormat.of("Application/OpenMetrics-Text")).isEqualTo(OPENMETRICS);
    assertThat(ExpositionFormat.of("text/plain; version=0.0.4; charset=utf-8"))
        .isEqualTo(PROMETHEUS_TEXT);
    assertThat(ExpositionFormat.of("application/json")).isEqualTo(PROMETHEUS_TEXT);
    assertThat(ExpositionFormat.of(null)).isEqualTo(PROMETHEUS_TEXT);
  }

  @Test
  void prometheus3StoresAHistogramsLeAndASummarysQuantileAsFloats() throws Exception {
    String body =
        """
        # TYPE h histogram
        h_bucket{le="1"} 1
        h_bucket{le="2.50"} 2
        h_bucket{le="1e6"} 3
        h_bucket{le="0.0001"} 3
        h_bucket{le="+Inf"} 4
        h_bucket{le="soon"} 4
        # TYPE s summary
        s{quantile="1"} 5
        s{le="1"} 5
        # TYPE g gauge
        g{le="1",quantile="1"} 6
        """;
    List<String> three =
        ExpositionParser.parse("t", body, PROMETHEUS_TEXT, Compat.PROMETHEUS_3).stream()
            .map(sample -> sample.labels().toString())
            .toList();
    List<String> two = text(body).stream().map(sample -> sample.labels().toString()).toList();

    assertThat(three)
        .containsExactly(
            "h_bucket{le=\"1.0\"}",
            "h_bucket{le=\"2.5\"}",
            "h_bucket{le=\"1e+06\"}",
            "h_bucket{le=\"0.0001\"}",
            "h_bucket{le=\"+Inf\"}",
            "h_bucket{le=\"soon\"}",
            "s{quantile=\"1.0\"}",
            "s{le=\"1\"}",
            "g{le=\"1\", quantile=\"1\"}");
    assertThat(two.get(0)).isEqualTo("h_bucket{le=\"1\"}");
    assertThat(
            ExpositionParser.parse(
                    "t",
                    "# TYPE h histogram\nh_bucket{le=\"10\"} 1\n# EOF\n",
                    OPENMETRICS,
                    Compat.PROMETHEUS_3)
                .get(0)
                .labels()
                .toString())
        .isEqualTo("h_bucket{le=\"10.0\"}");
  }

  private static List<String> three(String body, ExpositionFormat format)
      throws ExpositionException {
    return ExpositionParser.parse("t", body, format, Compat.PROMETHEUS_3).stream()
        .map(sample -> sample.labels().toString() + " " + sample.value())
        .toList();
  }

  // What the real Prometheus 3.5.3 stored for the same lines, scraped as text (shown by
  // LabelSet.toString, which does not quote names).
  @Test
  void prometheus3ReadsQuotedUtf8NamesWhereverTheyStand() throws Exception {
    String body =
        """
        # HELP "my.metric" a help
        # TYPE "my.metric" counter
        {"my.metric","some.label"="x",job2="y"} 1
        plain{"quoted_plain"="z"} 2
        {"noLabels.x"} 3
        {a="b","my.other"} 4
        { "spaced.name" , "a b"="c" } 5
        {"esc.\\"name","back\\\\slash"="v"} 6
        """;

    assertThat(three(body, PROMETHEUS_TEXT))
        .containsExactly(
            "my.metric{job2=\"y\", some.label=\"x\"} 1.0",
            "plain{quoted_plain=\"z\"} 2.0",
            "noLabels.x 3.0",
            "my.other{a=\"b\"} 4.0",
            "spaced.name{a b=\"c\"} 5.0",
            "esc.\"name{back\\slash=\"v\"} 6.0");
    assertThat(three("# TYPE \"a.b\" counter\n{\"a.b\",x=\"1\"} 1\n# EOF\n", OPENMETRICS))
        .containsExactly("a.b{x=\"1\"} 1.0");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "x{\"y\"} 1 | t: line 1: expected the metric name once, found \"y\" as a second metric name",
        "{\"a\",\"b\"} 1 | t: line 1: expected the metric name once, found \"b\" as a second metric name",
        "{\"a\"=\"c\"} 1 | t: line 1: expected a quoted metric name among the labels, found \"{\\\"a\\\"=\\\"c\\\"} 1\"",
        "\"my.metric\"{a=\"b\"} 1 | t: line 1: expected a metric name, found \"\\\"my.metric\\\"{a=\\\"b\\\"} 1\"",
        "{\"open 1 | t: line 1: expected a closing quote for the quoted name, found the end of the line"
      })
  void prometheus3RefusesMisplacedQuotedNames(String line, String message) {
    assertThatThrownBy(() -> three(line + "\n", PROMETHEUS_TEXT))
        .isInstanceOf(ExpositionException.class)
        .hasMessage(message);
  }

  @Test
  void prometheus2RefusesQuotedNamesAs242Does() {
    assertThatThrownBy(() -> text("{\"my.metric\"} 1\n"))
        .isInstanceOf(ExpositionException.class)
        .hasMessage(
            "127.0.0.1:9100: line 1: expected a metric name, found \"{\\\"my.metric\\\"} 1\"");
  }
}
