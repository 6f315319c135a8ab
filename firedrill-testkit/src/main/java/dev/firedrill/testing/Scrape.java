package dev.firedrill.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.OptionalDouble;

/** A scrape of a {@code /metrics} URL on loopback, and the value of one exact series in it. */
public record Scrape(String text) {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  public static Scrape of(URI metrics) {
    try {
      HttpResponse<String> response =
          HTTP.send(
              HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(5)).build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new AssertionError("scrape of " + metrics + " answered " + response.statusCode());
      }
      return new Scrape(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot scrape " + metrics, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while scraping " + metrics, e);
    }
  }

  /**
   * The value of the series written exactly as {@code name{a="1",b="2"}} (labels in exposition
   * order).
   */
  public OptionalDouble value(String series) {
    for (String line : text.split("\n")) {
      if (line.startsWith(series + " ")) {
        return OptionalDouble.of(
            Double.parseDouble(line.substring(series.length() + 1).trim().split(" ")[0]));
      }
    }
    return OptionalDouble.empty();
  }

  /** The value of a series that must be there. */
  public double get(String series) {
    return value(series)
        .orElseThrow(() -> new AssertionError("no series " + series + " in:\n" + text));
  }
}
